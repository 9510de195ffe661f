import torch

static_x = torch.ones(4, device="cuda")
g = torch.cuda.CUDAGraph()
for step in range(5):
    g.reset()
    with torch.cuda.graph(g):  # expect: CG705
        out = static_x * 2
    g.replay()
