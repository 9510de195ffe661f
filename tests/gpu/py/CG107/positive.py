import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(8, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = x * 2
    print(y)  # expect: CG107
g.replay()
