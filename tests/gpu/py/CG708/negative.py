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
    if step == 2:
        with torch.cuda.graph(g, capture_error_mode="thread_local"):
            out = static_x * 2
    if step > 2:
        g.replay()
torch.cuda.synchronize()
