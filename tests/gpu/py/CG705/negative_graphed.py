import torch
import torch.nn as nn
import torch.nn.functional as F

# make_graphed_callables over several modules of the same shape: six
# captures at one site, each graph captured once and replayed every step.
layers = [nn.Linear(128, 128).cuda() for _ in range(3)]
xs = [torch.randn(16, 128, device="cuda", requires_grad=True) for _ in layers]
graphed = torch.cuda.make_graphed_callables(tuple(layers), tuple((x,) for x in xs))
opt = torch.optim.SGD([p for l in layers for p in l.parameters()], lr=0.01)
for step in range(5):
    h = torch.randn(16, 128, device="cuda", requires_grad=True)
    for f in graphed:
        h = f(h)
    h.sum().backward()
    opt.step()
    opt.zero_grad(set_to_none=True)
torch.cuda.synchronize()
