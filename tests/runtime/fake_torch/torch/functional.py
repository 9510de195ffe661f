"""The fake torch's tensor factories (C functions in PyTorch: an operator
they run belongs to their caller; this file is a thin pass-through)."""
from . import _ops
from ._tensor import Tensor


def _make(name, value, shape, device, dtype="torch.float32"):
    shape = tuple(shape[0]) if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else tuple(shape)
    return _ops.dispatch(name, lambda size, device=None: Tensor(value, device or "cpu", tuple(size) or (1,), dtype),
                         (list(shape),), {"device": device})


def tensor(v, device="cpu"):
    return _ops.dispatch("lift_fresh.default", lambda d: Tensor(v, d, (1,)), (device,))


def ones(*shape, device="cpu"):
    return _make("ones.default", 1.0, shape, device)


def zeros(*shape, device="cpu"):
    return _make("zeros.default", 0.0, shape, device)


def empty(*shape, device="cpu", dtype="torch.float32"):
    return _make("empty.memory_format", 0.0, shape, device, dtype)


def randn(*shape, device="cpu"):
    return _make("randn.default", 0.5, shape, device)
