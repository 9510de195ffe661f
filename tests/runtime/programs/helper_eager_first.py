import torch


def log_rare(x):
    print("rare", x.shape)  # expect: CG301
    return x * 2


def log_hot(x):
    print("hot", x.shape)  # expect: CG301
    return x + 1


static_x = torch.ones(4, device="cuda")
g0 = torch.cuda.CUDAGraph()
with torch.cuda.graph(g0):   # a first capture: the observer's line recording is set up from here on
    z = static_x * 3
# both helpers run eagerly before the capture: log_rare a few times, log_hot
# more often than the observer keeps watching a function outside captures
for _ in range(3):
    log_rare(static_x)
for _ in range(400):
    log_hot(static_x)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    a = log_rare(static_x)
    b = log_hot(static_x)
for _ in range(2):
    g.replay()
