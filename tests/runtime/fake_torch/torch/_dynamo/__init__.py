"""Fake Dynamo: torch.compile's front end, enough to show the observer a
graph break through Dynamo's own hooks (InstructionTranslatorBase.
log_graph_break, Unsupported.add_to_stats, counters) and a compiled region
captured by inductor's CUDA graph trees."""


def disabled_call(fn, *args):
    """What torch._dynamo.disable's wrapper does: call fn with Dynamo off
    (a frame of torch/_dynamo/ between the caller and fn)."""
    return fn(*args)
