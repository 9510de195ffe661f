import torch
import torch.nn as nn
import torch.nn.functional as F

scale = 0.5
x = torch.randn(1024, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = x * scale  # expect: CG304
for _ in range(3):
    scale = scale * 2
    g.replay()
torch.cuda.synchronize()
