import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(4, device="cuda")
w = torch.tensor([1.0, 2.0, 3.0, 4.0], device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = x * w
for _ in range(3):
    g.replay()
torch.cuda.synchronize()
