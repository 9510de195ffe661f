import torch
import torch.nn as nn
import torch.nn.functional as F


@torch.compile(mode="reduce-overhead")
def accumulate(x, total):
    return (total + x) * 2


x = torch.randn(1024, device="cuda")
total = torch.zeros(1024, device="cuda")
for _ in range(5):
    y = accumulate(x, total)
torch.cuda.synchronize()
