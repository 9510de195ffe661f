"""Regression (issue 11, defect 1): `x: int` has no right-hand side; the
evaluator passed its null node to tree-sitter and crashed (SIGSEGV) on every
file whose capture reached such a line.  The hazard after it must be found."""
import torch


def step(x):
    count: int
    scale: float = 2.0
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        total: torch.Tensor
        y = x * scale
        peak = y.max().item()  # expect: CG101
    return y
