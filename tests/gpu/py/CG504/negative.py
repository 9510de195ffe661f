import torch
import torch.nn as nn
import torch.nn.functional as F

def main():
    static_x = torch.randn(1024, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = static_x * 2
    for _ in range(3):
        batch = torch.randn(1024, device="cuda")
        static_x.copy_(batch)
        g.replay()
    torch.cuda.synchronize()


main()
