# A DDP-free positive that one GPU can run too: a host-synchronising call
# (barrier) inside a capture that also holds an all_reduce.  Every rank fails
# at the same line. Expected: one finding at the barrier line, "on ranks 0,1"
# (rank 0 alone with one GPU).
import datetime
import os

import torch
import torch.distributed as dist

torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
dist.init_process_group("nccl", timeout=datetime.timedelta(seconds=60))
rank = dist.get_rank()
t = torch.ones(1024, device="cuda")
dist.all_reduce(t)
torch.cuda.synchronize()
s = torch.cuda.Stream()
g = torch.cuda.CUDAGraph()
try:
    with torch.cuda.graph(g, stream=s):
        dist.all_reduce(t)
        torch.cuda.synchronize()           # CG104: not allowed while capturing
except RuntimeError as e:
    print("rank", rank, "capture failed:", str(e).splitlines()[0], flush=True)
# no destroy_process_group: the communicator saw a capture invalidated
# under it, and its teardown is not what this program checks
