"""The step function is warmed up, but the capture's body also does work of
its own (`+ 1` on the step's result): the step's eager time is not what a
replay does, and `cglint run` does not set one beside the other."""
import torch

static_x = torch.ones(4, device="cuda")


def step(x):
    return x * 2


def main():
    for _ in range(3):
        out = step(static_x) + 1
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = step(static_x) + 1
    for _ in range(5):
        g.replay()
    return out


main()
print("done")
