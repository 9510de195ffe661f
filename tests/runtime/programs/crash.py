import sys
import torch

static_x = torch.ones(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    out = static_x * 2
g.replay()
sys.stderr.write("giving up\n")
sys.exit(3)
