import torch

static_x = torch.ones(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    out = static_x * 2


def later():
    v = out.item()  # never inside a capture
    return v


if False:
    with torch.cuda.graph(g):
        later2 = static_x.item()  # expect: CG101
g.replay()
