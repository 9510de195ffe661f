import torch
import torch.utils.checkpoint


def block(x):
    return x * 2


static_x = torch.ones(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = torch.utils.checkpoint.checkpoint(block, static_x, use_reentrant=False)
for _ in range(3):
    g.replay()
