"""Warm-up and capture of code written inline (no function called): there
is no step to time eagerly, and `cglint run` says nothing of eager time."""
import torch

static_x = torch.ones(4, device="cuda")


def main():
    for _ in range(3):
        out = static_x * 2 + 1
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = static_x * 2 + 1
    for _ in range(5):
        g.replay()
    return out


main()
print("done")
