import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(1024, device="cuda")
other = torch.cuda.Stream()
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = x * 2
    other.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(other):
        z = x + 1
    torch.cuda.current_stream().wait_stream(other)
for _ in range(3):
    g.replay()
torch.cuda.synchronize()
