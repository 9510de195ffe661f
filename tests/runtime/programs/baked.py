import torch


class Config:
    def __init__(self):
        self.use_bias = True
        self.temperature = 2.0


cfg = Config()
lr = 0.1
WIDTH = 4
static_x = torch.ones(4, device="cuda")
bias = torch.ones(4, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    y = static_x * lr
    z = y * cfg.temperature
    w = z.view(WIDTH)
    for i in range(3):
        y = y * i
    if cfg.use_bias:
        z = z + bias
for step in range(16):
    if step == 11:
        lr = 0.01
        cfg.temperature = 1.0
        cfg.use_bias = False
    g.replay()
