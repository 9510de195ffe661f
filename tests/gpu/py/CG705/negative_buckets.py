import torch
import torch.nn as nn
import torch.nn.functional as F

# Serving: one graph per batch-size bucket, captured once at one call site
# (some lazily, between replays of the others), each replayed many times.
model = nn.Linear(256, 256).cuda()
graphs = {}


def capture(bs):
    x = torch.zeros(bs, 256, device="cuda")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        model(x)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = model(x)
    graphs[bs] = (g, x, y)


for bs in (1, 2, 4):
    capture(bs)
for step in range(40):
    bs = (1, 2, 4, 8, 16)[step % 5]
    if bs not in graphs:
        capture(bs)
    g, x, y = graphs[bs]
    x.normal_()
    g.replay()
torch.cuda.synchronize()
