import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(1024, device="cuda")
g = torch.cuda.CUDAGraph()
g.capture_begin()  # expect: CG404
y = x * 2
g.capture_end()
g.replay()
