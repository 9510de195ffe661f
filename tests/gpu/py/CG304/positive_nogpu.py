import torch
import torch.nn as nn
import torch.nn.functional as F

# Runs its capture only where a GPU is visible; tests/gpu/run.sh also runs it
# with CUDA_VISIBLE_DEVICES="" (no capture ran: every finding not exercised).
if torch.cuda.is_available():
    scale = 0.5
    x = torch.randn(1024, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        y = x * scale  # expect: CG304
    for _ in range(3):
        scale = scale * 2
        g.replay()
    torch.cuda.synchronize()
else:
    print("no GPU: nothing to capture")
