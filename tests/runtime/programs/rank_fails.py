import sys
import torch

rank = int(sys.argv[1])
static_x = torch.ones(4, device="cuda")
weight = torch.ones(8, device="cuda")
g = torch.cuda.CUDAGraph()
try:
    with torch.cuda.graph(g):
        h = static_x * weight
except RuntimeError as e:
    print("rank", rank, "capture failed:", e)
