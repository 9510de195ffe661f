"""A small training loop with several CUDA graph hazards, for `cglint run`
(see the README): it captures one training step and replays it, and every
hazard here stays silent on the GPU: nothing raises, the numbers are just
wrong."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 1)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss_scale = 1.0
static_x = torch.randn(32, 64, device="cuda")
static_y = torch.randn(32, 1, device="cuda")
steps_seen = 0
history = []

side = torch.cuda.Stream()
side.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(side):
    for _ in range(3):
        opt.zero_grad(set_to_none=False)
        ((model(static_x) - static_y) ** 2).mean().backward()
        opt.step()
torch.cuda.current_stream().wait_stream(side)


def log_step(loss):
    print("captured a step")


g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    static_loss = ((model(static_x) - static_y) ** 2).mean() * loss_scale
    static_loss.backward()
    opt.step()
    steps_seen += 1
    log_step(static_loss)

for step in range(20):
    batch_x = torch.randn(32, 64, device="cuda")
    static_x = batch_x
    static_y.copy_(torch.randn(32, 1, device="cuda"))
    if step == 10:
        opt.param_groups[0]["lr"] = 0.01
        loss_scale = 0.5
    g.replay()
    history.append(static_loss)
print("steps counted:", steps_seen, "last loss:", float(history[-1]))
