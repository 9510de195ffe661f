"""Regression (issue 12, item 18): tree-sitter-python 0.23.6 cannot parse a
starred bracket in an unparenthesised tuple (`return None, *(x,) * n`, valid
Python since 3.5, in Megatron-LM's cuda_graphs.py); the file was "cannot
parse" and every run exited 2.  It is analysed whole now, silently."""
import torch


def grads(params, inputs):
    return None, *inputs, *(None,) * len(params)


def pair(a, b):
    first = a, *[b]
    return first


def step(x, params):
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = grads(params, (x,))
        n = x.sum().item()  # expect: CG101
    return out
