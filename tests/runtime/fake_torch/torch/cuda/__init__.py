import os

_capturing = False
_invalid = False
_current = None
_initialized = False


def _invalidate():
    global _invalid
    _invalid = True


def is_available():
    return not os.environ.get("FAKE_TORCH_NO_GPU")


def is_initialized():
    return _initialized


def get_rng_state():
    from .._tensor import Tensor
    return Tensor(0, "cpu", (16,), "torch.uint8")


def get_device_name(i=None):
    return "Fake GPU"


def is_current_stream_capturing():
    return _capturing and _current is not None and _current.capturing


class Stream:
    def __init__(self, default=False):
        self.default = default
        self.capturing = False

    def wait_stream(self, other):
        pass

    def __repr__(self):
        return "<Stream default=%s>" % self.default


_default = Stream(default=True)
_current = _default


def default_stream():
    return _default


def current_stream():
    return _current


class stream:
    def __init__(self, s):
        self.s = s

    def __enter__(self):
        global _current
        self.prev = _current
        _current = self.s

    def __exit__(self, *a):
        global _current
        _current = self.prev
        return False


def synchronize():
    if _capturing:
        _invalidate()
        raise RuntimeError("CUDA error: operation not permitted when stream is capturing")


class Event:
    def __init__(self, enable_timing=False):
        self.t = None

    def record(self, stream=None):
        import time
        self.t = time.perf_counter()

    def synchronize(self):
        pass

    def query(self):
        if _capturing:
            _invalidate()
            raise RuntimeError("CUDA error: operation not permitted when stream is capturing")
        return True

    def elapsed_time(self, other):
        return 0.25


from .graphs import CUDAGraph, graph, make_graphed_callables  # noqa: E402,F401
