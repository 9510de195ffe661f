import torch

if torch.cuda.is_available():
    scale = 0.5
    static_x = torch.ones(4, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = static_x * scale  # expect: CG304
    for step in range(4):
        scale = scale * 2
        g.replay()
else:
    print("no GPU: running on the CPU")
