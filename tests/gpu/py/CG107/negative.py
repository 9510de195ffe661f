import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = x * 2
for _ in range(3):
    g.replay()
print(y)
