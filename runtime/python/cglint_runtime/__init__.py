"""cglint_runtime: watch a PyTorch program capture and replay CUDA graphs.

Loaded into the program (``python -m cglint_runtime script.py`` or, under
``cglint run``, through ``sitecustomize`` on ``PYTHONPATH``), it wraps
``torch.cuda.graphs`` (``CUDAGraph.capture_begin/capture_end/replay``, the
``torch.cuda.graph`` context manager and ``make_graphed_callables``) and writes
what it sees, one JSON object a line, to a file of its own in
``$CGLINT_EVENTS_DIR``.  ``cglint run`` joins those events to the static
findings.  It only observes: it never changes what the program computes, and
any failure of its own is swallowed (and said once on stderr).

Pure Python, no dependencies; it does not import torch itself (it waits for
the program to do so).
"""
__version__ = "0.1.0"
EVENTS_VERSION = 1


def activate(events_dir=None, hints=None):
    """Start observing this process (idempotent)."""
    from . import observer
    return observer.activate(events_dir, hints)
