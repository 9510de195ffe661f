import torch
import torch.nn as nn
import torch.nn.functional as F


def capture_compiled():
    mlp = nn.Sequential(nn.Linear(1024, 1024), nn.GELU()).cuda()
    compiled = torch.compile(mlp)
    static_x = torch.randn(16, 1024, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):  # expect: CG701
        static_y = compiled(static_x)  # expect: CG706
    for _ in range(3):
        g.replay()
    torch.cuda.synchronize()


capture_compiled()
