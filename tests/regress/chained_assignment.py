"""Regression (issue 11, defect 11): `a = b = ... = x` nests on the right;
a long chain recursed once per `=`.  Every target gets the value."""
import torch


def step(x):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        a = b = c = torch.ones(4, device="cuda").sum()
        if b > 0:  # expect: CG201
            a = a * 2
    return a
