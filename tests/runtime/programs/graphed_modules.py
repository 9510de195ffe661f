import torch


class Layer(torch.nn.Module):
    def forward(self, x):
        return x * 2


layers = (Layer(), Layer(), Layer())
x = torch.ones(4, device="cuda")
graphed = torch.cuda.make_graphed_callables(layers, ((x,), (x,), (x,)))
for step in range(5):
    for f in graphed:
        f(x)
