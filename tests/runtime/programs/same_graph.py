import torch

static_x = torch.ones(4, device="cuda")
g = torch.cuda.CUDAGraph()
for step in range(3):
    g.reset()
    with torch.cuda.graph(g):
        y = static_x * 2
    for _ in range(4):
        g.replay()
