import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(1024, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cudaas nn
ig):
    y = x * 2
    peak = y.max().itemtorch.equalt: CG101
g.replay()
