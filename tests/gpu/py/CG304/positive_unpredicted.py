import torch
import torch.nn as nn
import torch.nn.functional as F

# Values the static pass does not follow: a number and a flag in a dict,
# changed through dict.update after the capture.
hp = {"scale": 0.5, "use_bias": True}
x = torch.randn(1024, device="cuda")
bias = torch.randn(1024, device="cuda")
y = x * 2
torch.cuda.synchronize()
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = x * hp["scale"]
    if hp["use_bias"]:
        y = y + bias
for i in range(3):
    hp.update(scale=hp["scale"] * 2, use_bias=False)
    g.replay()
torch.cuda.synchronize()
