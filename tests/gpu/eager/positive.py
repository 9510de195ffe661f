"""The step is a module of the program (MLP.forward), warmed up on a side
stream, captured and replayed: `cglint run` gives its eager GPU time beside
the replay time (tests/gpu/eager/check.py)."""
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
with torch.cuda.stream(s), torch.no_grad():
    for _ in range(11):
        out = model(static_x)
torch.cuda.current_stream().wait_stream(s)
g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g), torch.no_grad():
    static_out = model(static_x)
for _ in range(100):
    static_x.copy_(torch.randn(16, 256, device="cuda"))
    g.replay()
torch.cuda.synchronize()
print("done")
