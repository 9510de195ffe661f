"""A step warmed up on a side stream, captured, and replayed: `cglint run`
sets the replay time beside the GPU time of the same step run eagerly (the
functions the capture's body calls: step and loss)."""
import torch

static_x = torch.ones(4, device="cuda")


def step(x):
    return x * 2 + 1


def loss(y):
    return y.sum()


def main():
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        for _ in range(3):                 # the warm-up: the step run eagerly
            out = loss(step(static_x))
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = loss(step(static_x))
    for _ in range(5):
        g.replay()
    return out


main()
print("done")
