import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(1024, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
g = torch.cuda.CUDAGraph()
with torch.cuda.stream(s):
    g.capture_begin()
    y = x * 2
    g.capture_end()
torch.cuda.current_stream().wait_stream(s)
for _ in range(3):
    g.replay()
torch.cuda.synchronize()
