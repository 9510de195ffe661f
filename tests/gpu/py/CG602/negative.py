import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(1024, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    noise = torch.randn(1024, device="cuda")
    y = x + noise
for _ in range(3):
    g.replay()
torch.cuda.synchronize()
