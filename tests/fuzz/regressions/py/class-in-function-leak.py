# A class defined inside a function, and a class defined twice: neither is in
# its module's table of classes, and their method maps leaked (LeakSanitizer,
# src/python/py_index.c; now every class is on the module's all_classes list).
import torch


def build():
    class Local(torch.nn.Module):
        def forward(self, x):
            return x * 2
    return Local()


class Twice:
    def a(self):
        pass


class Twice:
    def b(self):
        pass


g = torch.cuda.CUDAGraph()
with torch.cuda.graph(g):
    n = build()(torch.ones(1)).item()
