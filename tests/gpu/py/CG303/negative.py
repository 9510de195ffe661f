import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(1024, device="cuda")
calls = []
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = x * 2
for _ in range(5):
    g.replay()
    calls.append(1)
print(len(calls))
