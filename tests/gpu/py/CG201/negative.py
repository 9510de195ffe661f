import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(1024, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = x * 2
    y = torch.where(y.sum() > 0, y + 1, y)
for _ in range(3):
    g.replay()
torch.cuda.synchronize()
