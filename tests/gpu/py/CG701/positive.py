import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Sequential(nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 256)).cuda()
x = torch.randn(64, 256, device="cuda")
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):  # expect: CG701
    y = model(x)
for _ in range(3):
    g.replay()
torch.cuda.synchronize()
