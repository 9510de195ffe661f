import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Linear(256, 10).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(64, 256, device="cuda")
y = torch.randint(0, 10, (64,), device="cuda")
for _ in range(3):
    opt.zero_grad(set_to_none=True)
    loss = F.cross_entropy(model(x), y)
    loss.backward()  # expect: CG702
    opt.step()
g = torch.cuda.CUDAGraph()
opt.zero_grad(set_to_none=True)
with torch.cuda.graph(g):
    static_loss = F.cross_entropy(model(x), y)
    static_loss.backward()
    opt.step()
g.replay()
torch.cuda.synchronize()
