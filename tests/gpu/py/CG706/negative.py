import torch
import torch.nn as nn
import torch.nn.functional as F


def capture_compiled():
    mlp = nn.Sequential(nn.Linear(1024, 1024), nn.GELU()).cuda()
    compiled = torch.compile(mlp)
    static_x = torch.randn(16, 1024, device="cuda")
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            static_y = compiled(static_x)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        static_y = compiled(static_x)
    for _ in range(3):
        g.replay()
    torch.cuda.synchronize()


capture_compiled()
