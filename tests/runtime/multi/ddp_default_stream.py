# CG702: the DDP step of ddp_clean.py, but DDP is built and warmed up on the
# default stream, which binds autograd's AccumulateGrad nodes to it; the
# captured backward then fails (or the replays are wrong).
# Expected: the static CG702 at the warm-up is confirmed on the ranks.
import datetime
import gc
import os

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

os.environ.setdefault("TORCH_NCCL_ASYNC_ERROR_HANDLING", "0")
torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
dist.init_process_group("nccl", timeout=datetime.timedelta(seconds=60))
rank = dist.get_rank()
model = torch.nn.Linear(256, 256).cuda()
x = torch.randn(32, 256, device="cuda")
s = torch.cuda.Stream()
if True:  # warm-up on the default stream
    ddp = DDP(model, device_ids=[torch.cuda.current_device()])
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
    for _ in range(11):
        opt.zero_grad(set_to_none=True)
        ddp(x).sum().backward()
        opt.step()
s.wait_stream(torch.cuda.current_stream())
g = torch.cuda.CUDAGraph()
opt.zero_grad(set_to_none=True)
with torch.cuda.graph(g, stream=s):
    loss = ddp(x).sum()
    loss.backward()
    opt.step()
for _ in range(5):
    g.replay()
torch.cuda.synchronize()
print("rank", rank, "ok", flush=True)
del g, loss
gc.collect()
torch.cuda.synchronize()
dist.destroy_process_group()
