import torch
import torch.nn as nn
import torch.nn.functional as F

gen = torch.Generator(device="cuda")
gen.manual_seed(0)
x = torch.randn(1024, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    noise = torch.randn(1024, device="cuda", generator=gen)  # expect: CG602
    y = x + noise
g.replay()
