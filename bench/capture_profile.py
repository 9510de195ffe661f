"""Profile one capture of bench/replay_loop.py's training step: four captures of
the same step, cProfile around the second and fourth, the fourth's profile (by
own time) and every capture's wall time on stderr.  Run it plainly and under
`cglint run --findings NONE.json -- python3 bench/capture_profile.py` to see what
the observer costs inside a capture (docs/gpu-verification.md, run 15)."""
import cProfile, io, pstats, sys, time
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 512)).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.01)
static_x = torch.randn(64, 512, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    for _ in range(3):
        opt.zero_grad(set_to_none=False)
        model(static_x).square().mean().backward()
        opt.step()
torch.cuda.current_stream().wait_stream(s)
res = []
for k in range(4):
    g = torch.cuda.CUDAGraph()
    torch.cuda.synchronize()
    pr = cProfile.Profile() if k in (1, 3) else None
    t0 = time.perf_counter()
    if pr: pr.enable()
    with torch.cuda.graph(g):
        static_loss = model(static_x).square().mean()
        static_loss.backward()
        opt.step()
    if pr: pr.disable()
    torch.cuda.synchronize()
    res.append((time.perf_counter() - t0) * 1e3)
    for _ in range(5):
        g.replay()
    if pr and k == 3:
        out = io.StringIO()
        pstats.Stats(pr, stream=out).sort_stats("tottime").print_stats(35)
        print(out.getvalue()[:9000], file=sys.stderr)
print("capture ms", ["%.2f" % r for r in res], file=sys.stderr)
