import torch
import torch.nn as nn
import torch.nn.functional as F

# The same values kept on the GPU, a constant, and a loop inside the capture.
hp = {"scale": torch.full((1,), 0.5, device="cuda"), "use_bias": True}
WIDTH = 1024
x = torch.randn(WIDTH, device="cuda")
bias = torch.randn(WIDTH, device="cuda")
y = x * 2
torch.cuda.synchronize()
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = x * hp["scale"]
    for i in range(3):
        y = y * (i + 1)
    if hp["use_bias"]:
        y = y + bias.view(WIDTH)
for i in range(3):
    hp["scale"].mul_(2)
    g.replay()
torch.cuda.synchronize()
