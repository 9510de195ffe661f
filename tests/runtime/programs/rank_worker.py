import os
import torch


class DistBackendError(RuntimeError):   # torch.distributed's, as NCCL's abort raises it
    pass


rank = int(os.environ["RANK"])
static_x = torch.ones(4, device="cuda")
weight = torch.ones(8 if rank == 0 else 4, device="cuda")
g = torch.cuda.CUDAGraph()
try:
    with torch.cuda.graph(g):
        h = static_x * weight          # rank 0: shapes differ, the capture fails
except RuntimeError as e:
    print("rank", rank, "capture failed:", e)
    raise SystemExit(1)
g.replay()
raise DistBackendError("NCCL communicator was aborted on rank 1: the peer's process exited")
