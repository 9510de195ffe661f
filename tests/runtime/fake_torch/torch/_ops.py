"""Operators of the fake torch: every one goes through the active
TorchDispatchMode, as ATen operators do in PyTorch.  This file is one of the
thin pass-through modules of torch (as torch/_ops.py is): an operator called
from here belongs to the code that called it."""


class OpOverload:
    def __init__(self, name, impl):
        self.__name__ = name
        self._impl = impl

    def __call__(self, *args, **kwargs):
        return self._impl(*args, **kwargs)

    def __str__(self):
        return "aten." + self.__name__

    __repr__ = __str__


_ops = {}


def dispatch(name, impl, args, kwargs=None):
    from .utils import _python_dispatch as pd
    op = _ops.get(name)
    if op is None or op._impl is not impl:
        op = _ops[name] = OpOverload(name, impl)
    kwargs = kwargs or {}
    if pd._stack:
        mode = pd._stack.pop()      # a mode does not see the operators it runs itself
        try:
            # through a Dynamo `disable` wrapper, as PyTorch may call it
            from ._dynamo import disabled_call
            return disabled_call(mode.__torch_dispatch__, op, (), args, kwargs)
        finally:
            pd._stack.append(mode)
    return impl(*args, **kwargs)
