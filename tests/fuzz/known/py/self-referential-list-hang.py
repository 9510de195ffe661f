N = [N, N, N]
N = [N, N, N]
N = [N, N, N]
N = [N, N, N]
N = [N, N, N]
N = [N, N, N]
N = [N, N, N]
N = [N, N, N]
N = [N, N, N]
N = [N, N, N]
N = [N, N, N]
N = [N, N, N]
N = [N, N, N]
N = [N, N, N]
N = [N, N, N]
N = [N, N, N]
N = [N, N, N]
N = [N, N, N]
N = [N, N, N]
N = [N, N, N]
import torch
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    x = N
