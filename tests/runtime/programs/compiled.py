import torch


@torch.compile(mode="reduce-overhead")
def step(x):
    y = x * 2
    s = y.sum().item()
    return y * s


def update(x, buf):
    buf.add_(x)
    return buf * 2


update_c = torch.compile(update, mode="reduce-overhead")


@torch.compile
def plain(x):
    y = x * 3
    print("plain")
    return y


x = torch.ones(4, device="cuda")
buf = torch.zeros(4, device="cuda")
for _ in range(5):
    out = step(x)
    update_c(x, buf)
    plain(x)
