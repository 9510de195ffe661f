# A collective captured on rank 0 only while rank 1 runs it eagerly: NCCL
# requires every rank of the communicator to capture it (or none).  The run
# hangs; the process group's 20 s timeout (NCCL's watchdog) ends it.
# Expected: both ways end before the script's timeout with a non-zero exit;
# cglint run says which ranks ended without exiting and that the capture ran
# on rank 0 only.
import datetime
import os

import torch
import torch.distributed as dist

torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
dist.init_process_group("nccl", timeout=datetime.timedelta(seconds=20))
rank = dist.get_rank()
t = torch.ones(1024, device="cuda")
dist.all_reduce(t)                         # the communicator is made before the capture
torch.cuda.synchronize()
if rank == 0:
    s = torch.cuda.Stream()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g, stream=s):
        dist.all_reduce(t)                 # captured on rank 0 only
    g.replay()
else:
    dist.all_reduce(t)                     # eager on rank 1
torch.cuda.synchronize()
print("rank", rank, "sum", t[0].item(), flush=True)
