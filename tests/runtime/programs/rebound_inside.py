import torch

# The capture reads `b` and rebinds it: after the capture `b` is the graph's
# output, which every replay writes. Reading it after a replay is right.
b = torch.ones(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    b.fill_(2.0)
    for _ in range(3):
        b = b + 1
for _ in range(3):
    g.replay()
print(b.sum().item())
