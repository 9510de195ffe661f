# DDP under torchrun (2 ranks on one GPU, gloo): the graph of a DDP training
# step fails in every rank; each failure must be a finding at a line of this
# file, once, "on ranks 0,1" (each rank's failure merged into one finding).
import os
import sys

import torch
import torch.distributed as dist
import torch.nn as nn

if "LOCAL_RANK" not in os.environ:
    os.execv(sys.executable, [sys.executable, "-m", "torch.distributed.run", "--standalone",
                              "--nproc_per_node=2", os.path.abspath(__file__)])

os.environ["TORCH_NCCL_ASYNC_ERROR_HANDLING"] = "0"
dist.init_process_group("gloo")
x = torch.randn(32, 64, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    model = nn.parallel.DistributedDataParallel(nn.Linear(64, 64).cuda())
    for _ in range(11):
        model(x).square().mean().backward()
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
try:
    with torch.cuda.graph(g):
        model(x).square().mean().backward()
except Exception as e:
    print("rank", dist.get_rank(), "capture failed:", str(e).splitlines()[0] if str(e) else type(e).__name__)
dist.destroy_process_group()
