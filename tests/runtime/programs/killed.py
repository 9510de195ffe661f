import os
import signal
import torch

static_x = torch.ones(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    out = static_x * 2
for _ in range(3):
    g.replay()
os.kill(os.getpid(), signal.SIGKILL)
