"""torch.random of the fake torch: the RNG state is a CPU tensor that torch
makes itself (library work, not the user's)."""
from . import _ops
from ._tensor import Tensor


def get_rng_state():
    return _ops.dispatch("empty.memory_format", lambda size, device=None: Tensor(0, "cpu", tuple(size), "torch.uint8"),
                         ([5056],), {"device": "cpu"})


def set_rng_state(state):
    return None
