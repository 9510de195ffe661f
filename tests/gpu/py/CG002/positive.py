import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.randn(32, 64, device="cuda")
w = torch.randn(32, 64, device="cuda")
y = x @ w.t()
torch.cuda.synchronize()
g = torch.cuda.CUDAGraph()
try:
    with torch.cuda.graph(g):
        y = x @ w
except RuntimeError as e:
    print("capture failed:", str(e).splitlines()[0])
