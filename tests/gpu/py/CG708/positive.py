import time

import torch
import torch.nn as nn
import torch.nn.functional as F

from torch.utils.data import DataLoader, TensorDataset

data = TensorDataset(torch.randn(4096, 1024), torch.randn(4096, 1024))
loader = DataLoader(data, batch_size=64, num_workers=2, pin_memory=True)
static_x = torch.zeros(64, 1024, device="cuda")
g = torch.cuda.CUDAGraph()
for step, (x, y) in enumerate(loader):
    static_x.copy_(x, non_blocking=True)
    # a capture of some length while the pin-memory thread is pinning the
    # next batches (a capture of one operator can end before the thread's
    # next pinning call, and then nothing goes wrong: a race)
    if step == 1:
        with torch.cuda.graph(g):  # expect: CG708
            out = static_x
            for _ in range(512):
                out = out * 2
            time.sleep(0.5)  # the CPU waits, the pin-memory thread pins the next batches
    if step > 1:
        g.replay()
torch.cuda.synchronize()
