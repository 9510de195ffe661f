import torch
import torch.nn as nn
import torch.nn.functional as F

import random

x = torch.randn(1024, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    scale = random.random()  # expect: CG302
    y = x * scale
for _ in range(5):
    g.replay()
torch.cuda.synchronize()
