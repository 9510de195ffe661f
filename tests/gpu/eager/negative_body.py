"""The same module, but the capture's body also computes a loss and runs the
backward itself: the module's eager time is not what a replay does, so
`cglint run` sets none beside the replay time."""
import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(256, 256) for _ in range(8))

    def forward(self, x):
        for layer in self.layers:
            x = torch.relu(layer(x))
        return x


model = MLP().cuda()
static_x = torch.randn(16, 256, device="cuda")
s = torch.cuda.Stream()
s.wait_stream(torch.cuda.current_stream())
with torch.cuda.stream(s):
    for _ in range(11):
        model(static_x).square().mean().backward()
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    loss = model(static_x).square().mean()
    loss.backward()
for _ in range(100):
    g.replay()
torch.cuda.synchronize()
print("done")
