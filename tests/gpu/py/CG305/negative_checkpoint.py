import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.utils.checkpoint

# checkpoint saves the RNG state inside the capture: the CPU tensors it makes
# are PyTorch's own, not the program's.
w = torch.randn(64, 64, device="cuda")
x = torch.randn(32, 64, device="cuda")


def block(x):
    return torch.relu(x @ w)


y = torch.utils.checkpoint.checkpoint(block, x, use_reentrant=False)
torch.cuda.synchronize()
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = torch.utils.checkpoint.checkpoint(block, x, use_reentrant=False)
for _ in range(3):
    g.replay()
torch.cuda.synchronize()
