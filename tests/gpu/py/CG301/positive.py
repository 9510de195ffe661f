import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(1024, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = x * 2
    print("step done")  # expect: CG301
for _ in range(5):
    g.replay()
torch.cuda.synchronize()
