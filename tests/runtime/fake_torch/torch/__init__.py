"""A stand-in for PyTorch, for testing cglint's runtime observer on machines
without a GPU (CI).  It imitates only what the observer touches and the
behaviours of capture that the tests need: errors raised by host reads
during capture, invalidated captures, capture refused on the default
stream, CUDA graph objects with capture_begin/capture_end/replay, the
torch.cuda.graph context manager, make_graphed_callables, optimizers with
global step pre-hooks.  Nothing here computes on a GPU."""
import itertools
import os

__version__ = "0.0.0+fake"
from . import version  # noqa: E402

_ptr = itertools.count(0x7F0000000000, 0x1000)


class device:
    def __init__(self, type):
        self.type = type


class Tensor:
    def __init__(self, value=0.0, dev="cuda"):
        self.value = value
        self.device = device(dev)
        self._ptr = next(_ptr)

    @property
    def is_cuda(self):
        return self.device.type == "cuda"

    def data_ptr(self):
        return self._ptr

    def _host_read(self):
        from . import cuda
        if self.is_cuda and cuda._capturing:
            cuda._invalidate()
            raise RuntimeError("CUDA error: operation not permitted when stream is capturing\n"
                               "CUDA kernel errors might be asynchronously reported")
        return self.value

    def item(self):
        return self._host_read()

    def __float__(self):
        return float(self._host_read())

    def copy_(self, other):
        self.value = other.value if isinstance(other, Tensor) else other
        return self

    def fill_(self, v):
        self.value = v
        return self

    def clone(self):
        return Tensor(self.value, self.device.type)

    def _bin(self, other, op):
        o = other.value if isinstance(other, Tensor) else other
        return Tensor(op(self.value, o), self.device.type)

    def __mul__(self, o):
        return self._bin(o, lambda a, b: a * b)

    def __add__(self, o):
        return self._bin(o, lambda a, b: a + b)

    __rmul__ = __mul__
    __radd__ = __add__

    def sum(self):
        return Tensor(self.value, self.device.type)

    def __gt__(self, o):
        return self._bin(o, lambda a, b: a > b)

    def __bool__(self):
        return bool(self._host_read())

    def __repr__(self):
        return "tensor(%r, device=%r)" % (self.value, self.device.type)


def tensor(v, device="cpu"):
    return Tensor(v, device)


def ones(*shape, device="cpu"):
    return Tensor(1.0, device)


def zeros(*shape, device="cpu"):
    return Tensor(0.0, device)


def randn(*shape, device="cpu"):
    return Tensor(0.5, device)


from . import cuda  # noqa: E402,F401
from . import optim  # noqa: E402,F401
from . import nn  # noqa: E402,F401
