import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    w = torch.tensor([1.0, 2.0, 3.0, 4.0], device="cuda")  # expect: CG103
    y = x * w
g.replay()
