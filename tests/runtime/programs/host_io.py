import torch

static_x = torch.ones(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    out = static_x * 2
    print("captured one step")  # expect: CG301
for _ in range(5):
    g.replay()
print("done")
