import torch

# A test-style sweep: each iteration captures a different operator on
# inputs of the same shape and replays it; no graph is captured twice.
x = torch.ones(4, device="cuda")
for op in ("__mul__", "__add__", "add_"):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = getattr(x, op)(2)
    for _ in range(3):
        g.replay()
