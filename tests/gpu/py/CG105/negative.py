import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(1024, device="cuda")
done = torch.cuda.Event()
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = x * 2
for _ in range(3):
    g.replay()
done.record()
done.synchronize()
print(done.query())
