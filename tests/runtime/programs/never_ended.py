import torch

static_x = torch.ones(4, device="cuda")
g = torch.cuda.CUDAGraph()
s = torch.cuda.Stream()
with torch.cuda.stream(s):
    g.capture_begin()
    y = static_x * 2
    raise ValueError("bad batch")
