import torch

static_x = torch.ones(4, device="cuda")
g = torch.cuda.CUDAGraph()
g.capture_begin()  # expect: CG404
out = static_x * 2
g.capture_end()
