import torch

static_x = torch.ones(4, device="cuda")
weight = torch.ones(8, device="cuda", )
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    h = static_x * weight
g.replay()
