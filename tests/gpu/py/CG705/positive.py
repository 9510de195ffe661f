import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(1024, device="cuda")
for step in range(4):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):  # expect: CG705
        y = x * 2
    g.replay()
torch.cuda.synchronize()
