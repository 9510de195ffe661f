import torch
import torch.nn as nn
import torch.nn.functional as F

host = torch.randn(1024)
x = torch.randn(1024, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    pinned = host.pin_memory()  # expect: CG503
    y = x + pinned.to("cuda", non_blocking=True)
for _ in range(3):
    g.replay()
torch.cuda.synchronize()
