import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Linear(64, 64).cuda()
x = torch.randn(32, 64, device="cuda")

def warm(fn, n=3):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(n):
            fn()
    torch.cuda.current_stream().wait_stream(s)


def step():
    model(x).square().mean().backward()


warm(step)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    model(x).square().mean().backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
for _ in range(3):
    g.replay()
torch.cuda.synchronize()
