"""A replay-heavy PyTorch loop for bench/runtime_overhead.sh: a small MLP
training step (forward, backward, SGD) captured once with torch.cuda.graph,
then replayed STEPS times with a new input copied into the static tensor
before each replay.  Prints one JSON line: capture_ms (warm-up excluded:
the `with torch.cuda.graph` block alone), step_us (wall time per
copy_+replay, after a synchronize), steps, capture2_ms (a second capture of
the same step, after the replays: the per-capture cost without one-time
set-up)."""
import json
import sys
import time

import torch
import torch.nn as nn

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 512)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.01)
static_x = torch.randn(64, 512, device="cuda")
batches = [torch.randn(64, 512, device="cuda") for _ in range(8)]

s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    for _ in range(3):
        opt.zero_grad(set_to_none=False)
        model(static_x).square().mean().backward()
        opt.step()
torch.cuda.current_stream().wait_stream(s)

g = torch.cuda.CUDAGraph()
torch.cuda.synchronize()
t0 = time.perf_counter()
with torch.cuda.graph(g):
    static_loss = model(static_x).square().mean()
    static_loss.backward()
    opt.step()
torch.cuda.synchronize()
capture_ms = (time.perf_counter() - t0) * 1e3

for i in range(50):
    static_x.copy_(batches[i % 8])
    g.replay()
torch.cuda.synchronize()
t0 = time.perf_counter()
for i in range(steps):
    static_x.copy_(batches[i % 8])
    g.replay()
torch.cuda.synchronize()
step_us = (time.perf_counter() - t0) / steps * 1e6

# a second capture of the same step into another graph: what each capture
# costs once the one-time set-up (the observer's dispatch mode class, line
# recording, CUPTI's first switch) is done
g2 = torch.cuda.CUDAGraph()
torch.cuda.synchronize()
t0 = time.perf_counter()
with torch.cuda.graph(g2):
    static_loss2 = model(static_x).square().mean()
    static_loss2.backward()
    opt.step()
torch.cuda.synchronize()
capture2_ms = (time.perf_counter() - t0) * 1e3
print(json.dumps({"capture_ms": capture_ms, "capture2_ms": capture2_ms, "step_us": step_us, "steps": steps,
                  "loss": float(static_loss)}))
