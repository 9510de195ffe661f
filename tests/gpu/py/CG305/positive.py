import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(3, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    bias = torch.zeros(3)  # expect: CG305
    y = x * 2
g.replay()
torch.cuda.synchronize()
