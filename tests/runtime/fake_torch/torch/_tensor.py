"""The fake Tensor (see torch/__init__.py); its operators go through
torch._ops.dispatch, so a TorchDispatchMode sees them with their scalar
arguments, as in PyTorch."""
import itertools

from . import _ops

_ptr = itertools.count(0x7F0000000000, 0x1000)


class device:
    def __init__(self, type):
        self.type = type


class Tensor:
    def __init__(self, value=0.0, dev="cuda", shape=(4,), dtype="torch.float32"):
        self.value = value
        self.device = device(dev)
        self.shape = tuple(shape)
        self.dtype = dtype
        self._ptr = next(_ptr)
        if dev == "cuda":
            from . import cuda
            if cuda.is_available():
                cuda._initialized = True

    @property
    def is_cuda(self):
        return self.device.type == "cuda"

    @property
    def is_cpu(self):
        return self.device.type == "cpu"

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
        return _ops.dispatch("_local_scalar_dense.default", Tensor._host_read, (self,))

    def __float__(self):
        return float(self.item())

    def copy_(self, other):
        def impl(a, b):
            a.value = b.value if isinstance(b, Tensor) else b
            return a
        return _ops.dispatch("copy_.default", impl, (self, other))

    def add_(self, other):
        def impl(a, b):
            a.value += b.value if isinstance(b, Tensor) else b
            return a
        return _ops.dispatch("add_.Tensor", impl, (self, other))

    def fill_(self, v):
        def impl(a, b):
            a.value = b
            return a
        return _ops.dispatch("fill_.Scalar", impl, (self, v))

    def clone(self):
        return _ops.dispatch("clone.default", lambda a: Tensor(a.value, a.device.type, a.shape), (self,))

    def _bin(self, other, op, name):
        def impl(a, b):
            o = b.value if isinstance(b, Tensor) else b
            if isinstance(b, Tensor) and b.shape != a.shape and b.shape != (1,) and a.shape != (1,):
                raise RuntimeError("The size of tensor a (%d) must match the size of tensor b (%d) at "
                                   "non-singleton dimension 0" % (a.shape[0], b.shape[0]))
            return Tensor(op(a.value, o), a.device.type, a.shape)
        return _ops.dispatch(name, impl, (self, other))

    def __mul__(self, o):
        return self._bin(o, lambda a, b: a * b, "mul.Tensor")

    def __add__(self, o):
        return self._bin(o, lambda a, b: a + b, "add.Tensor")

    __rmul__ = __mul__
    __radd__ = __add__

    def sum(self):
        return _ops.dispatch("sum.default", lambda a: Tensor(a.value, a.device.type, (1,)), (self,))

    def __gt__(self, o):
        return self._bin(o, lambda a, b: a > b, "gt.Tensor")

    def __bool__(self):
        return bool(self.item())

    def view(self, *shape):
        return _ops.dispatch("view.default", lambda a, s: Tensor(a.value, a.device.type, tuple(s)), (self, list(shape)))

    def __repr__(self):
        return "tensor(%r, device=%r)" % (self.value, self.device.type)
