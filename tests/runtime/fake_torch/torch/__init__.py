"""A stand-in for PyTorch, for testing cglint's runtime observer on machines
without a GPU (CI).  It imitates only what the observer touches and the
behaviours of capture that the tests need: errors raised by host reads
during capture, invalidated captures, capture refused on the default
stream, CUDA graph objects with capture_begin/capture_end/replay, the
torch.cuda.graph context manager, make_graphed_callables, optimizers with
global step pre-hooks, operators that go through TorchDispatchMode with
their scalar arguments, tensors with shapes, checkpoint's RNG-state
handling, and torch.compile(mode="reduce-overhead") with Dynamo's
graph-break hook and inductor's cudagraph-skip hook.  Nothing here computes
on a GPU."""

__version__ = "0.0.0+fake"
from . import version  # noqa: E402,F401
from ._tensor import Tensor, device  # noqa: E402,F401
from .functional import tensor, ones, zeros, empty, randn  # noqa: E402,F401
from . import random  # noqa: E402,F401
from . import cuda  # noqa: E402,F401
from . import optim  # noqa: E402,F401
from . import nn  # noqa: E402,F401
from . import utils  # noqa: E402,F401


def compile(model=None, *, mode=None, options=None, backend="inductor", fullgraph=False, dynamic=None):
    from ._dynamo import eval_frame
    if model is None:
        return lambda fn: eval_frame.optimize(fn, mode, options, backend)
    return eval_frame.optimize(model, mode, options, backend)
