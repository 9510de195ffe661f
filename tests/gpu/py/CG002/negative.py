import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(32, 64, device="cuda")
w = torch.randn(32, 64, device="cuda")
y = x @ w.t()
torch.cuda.synchronize()
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = x @ w.t()
for _ in range(3):
    g.replay()
torch.cuda.synchronize()
