import torch
import torch.nn as nn
import torch.nn.functional as F

scale = torch.full((1,), 0.5, device="cuda")
x = torch.randn(1024, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = x * scale
for _ in range(3):
    scale.mul_(2)
    g.replay()
torch.cuda.synchronize()
