import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(64, 128, device="cuda")
n = torch.tensor(32, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = x[:, : n.item()]  # expect: CG203
g.replay()
