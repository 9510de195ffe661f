import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Linear(64, 64).cuda()
x = torch.randn(32, 64, device="cuda", requires_grad=True)
graphed = torch.cuda.make_graphed_callables(model, (x,))
model.register_forward_hook(lambda m, i, o: None)
for _ in range(3):
    graphed(x).sum().backward()
torch.cuda.synchronize()
