import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(1024, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = x * 2
for _ in range(5):
    g.replay()
    print("step done")
torch.cuda.synchronize()
