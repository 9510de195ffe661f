"""Regression (issue 11, defect 2): a module-level name whose right-hand side
names itself k times was re-evaluated at every reference (k^20 evaluations):
the run hung.  Each module-level value is now evaluated once."""
import torch

opts = None
opts = {} if opts is None else {**opts, "a": opts, "b": opts, "c": opts}
opts = {} if opts is None else {**opts, "a": opts, "b": opts, "c": opts}
N = [1]
N = [N, N, N, N]
N = [N, N, N, N]
N = [N, N, N, N]


def step(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = x + len(N) + len(opts)
        print(y)  # expect: CG301
    return y
