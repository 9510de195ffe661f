import torch


class Net(torch.nn.Module):
    def forward(self, x):
        return x * 2


net = Net()
net.register_forward_hook(lambda m, i, o: None)
x = torch.ones(4, device="cuda")
graphed = torch.cuda.make_graphed_callables(net, (x,))  # expect: CG704
