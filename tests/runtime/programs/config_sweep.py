import torch

# A sweep over configurations: each iteration captures a fresh graph for
# its own shape and replays it; no graph is captured twice.
for n in (8, 16):
    x = torch.zeros(n, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = x + 1
    for _ in range(3):
        g.replay()
