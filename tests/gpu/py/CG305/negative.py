import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(3, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    bias = torch.zeros(3, device="cuda")
    y = x * 2 + bias
for _ in range(3):
    g.replay()
torch.cuda.synchronize()
