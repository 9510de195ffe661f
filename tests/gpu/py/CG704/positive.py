import torch
import torch.nn as nn
import torch.nn.functional as F

model = nn.Linear(64, 64).cuda()
model.register_forward_hook(lambda m, i, o: None)
x = torch.randn(32, 64, device="cuda", requires_grad=True)
graphed = torch.cuda.make_graphed_callables(model, (x,))  # expect: CG704
