import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(1024, device="cuda")
stats = {"calls": 0}
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = x * 2
    stats["calls"] += 1  # expect: CG303
for _ in range(5):
    g.replay()
print(stats["calls"])
