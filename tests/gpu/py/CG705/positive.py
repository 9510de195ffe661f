import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(1024, device="cuda")
g = torch.cuda.CUDAGraph()
for step in range(4):
    g.reset()
    with torch.cuda.graph(g):  # expect: CG705
        y = x * 2
    g.replay()
torch.cuda.synchronize()
