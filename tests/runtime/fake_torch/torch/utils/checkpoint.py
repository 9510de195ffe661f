"""torch.utils.checkpoint of the fake torch: saves the CPU RNG state (a CPU
tensor made by torch itself) and runs the function."""
import torch


def checkpoint(function, *args, use_reentrant=False, preserve_rng_state=True, **kwargs):
    if preserve_rng_state:
        state = torch.random.get_rng_state()
        torch.random.set_rng_state(state)
    return function(*args, **kwargs)
