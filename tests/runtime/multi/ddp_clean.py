# Full-iteration DDP capture done by the book (PyTorch's CUDA graphs notes,
# "Usage with DistributedDataParallel"): DDP built and warmed up (11
# iterations) on a side stream, then forward, backward and step captured.
# The graph holds NCCL resources: it is deleted before destroy_process_group,
# whose ncclCommDestroy otherwise waits for it forever (pytorch#115388).
# Expected: both ranks exit 0; cglint run confirms nothing, finds nothing.
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
torch.manual_seed(0)
model = torch.nn.Linear(256, 256).cuda()
x = torch.randn(32, 256, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    ddp = DDP(model, device_ids=[torch.cuda.current_device()])
    opt = torch.optim.SGD(ddp.parameters(), lr=0.1)
    for _ in range(11):
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
print("rank", rank, "ok", loss.item(), flush=True)
del g, loss
gc.collect()
torch.cuda.synchronize()
dist.destroy_process_group()
