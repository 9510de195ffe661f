import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Linear(64, 64).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(32, 64, device="cuda")

def warm(fn, n=3):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(n):
            fn()
    torch.cuda.current_stream().wait_stream(s)


def step():
    opt.zero_grad(set_to_none=False)
    model(x).square().mean().backward()
    opt.step()


warm(step)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    model(x).square().mean().backward()
    opt.step()
for i in range(3):
    g.replay()
torch.cuda.synchronize()
