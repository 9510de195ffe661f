import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(1024, device="cuda")
side = torch.cuda.Stream()
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = x * 2
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        z = y + 1
    torch.cuda.current_stream().wait_stream(side)
for _ in range(3):
    g.replay()
torch.cuda.synchronize()
