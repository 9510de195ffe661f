import torch

params = [torch.ones(4, device="cuda")]
opt = torch.optim.SGD(params, lr=0.1)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    opt.step()
for step in range(3):
    opt.param_groups[0]["lr"] = 0.1 / (step + 2)  # expect: CG606
    g.replay()
