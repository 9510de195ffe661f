import torch

x = torch.ones(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = x * 2
    v = y.item()  # expect: CG101
g.replay()
