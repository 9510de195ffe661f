# CG703: DDP captured after 3 warm-up iterations (DDP needs 11: its first
# iterations rebuild buckets and time themselves with CUDA events, which a
# capture cannot do).  Expected: the capture fails on every rank and the
# run puts the failure at the captured step, once, "on ranks 0,1".
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
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    ddp = DDP(model, device_ids=[torch.cuda.current_device()])
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
    for _ in range(3):
        opt.zero_grad(set_to_none=True)
        ddp(x).sum().backward()
        opt.step()
torch.cuda.current_stream().wait_stream(s)
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
