import torch.cuda as _c


class _CUDAGraphBase:
    def capture_begin(self, pool=None, capture_error_mode="global"):
        if _c._current.default:
            raise RuntimeError("CUDA graphs must be captured on a non-default stream. "
                               "(However, after capture, it's ok to replay on the default stream.)")
        _c._capturing = True
        _c._invalid = False
        _c._current.capturing = True
        self._stream = _c._current

    def capture_end(self):
        _c._capturing = False
        self._stream.capturing = False
        if _c._invalid:
            _c._invalid = False
            raise RuntimeError("CUDA error: operation failed due to a previous error during capture")
        self.captured = True

    def replay(self):
        pass

    def reset(self):
        self.captured = False


class CUDAGraph(_CUDAGraphBase):
    def capture_begin(self, pool=None, capture_error_mode="global"):
        super().capture_begin(pool=pool, capture_error_mode=capture_error_mode)

    def capture_end(self):
        super().capture_end()

    def replay(self):
        super().replay()


class graph:
    def __init__(self, cuda_graph, pool=None, stream=None, capture_error_mode="global"):
        self.cuda_graph = cuda_graph
        self.capture_stream = stream if stream is not None else _c.Stream()

    def __enter__(self):
        _c.synchronize()
        self.stream_ctx = _c.stream(self.capture_stream)
        self.stream_ctx.__enter__()
        self.cuda_graph.capture_begin()

    def __exit__(self, exc_type, exc_value, traceback):
        self.cuda_graph.capture_end()
        self.stream_ctx.__exit__(exc_type, exc_value, traceback)


def make_graphed_callables(callables, sample_args):
    single = not isinstance(callables, tuple)
    if single:
        callables, sample_args = (callables,), (sample_args,)
    out = []
    for fn, args in zip(callables, sample_args):
        if getattr(fn, "_forward_hooks", None):
            raise AssertionError("Modules must not have hooks registered at the time they are passed. "
                                 "However, registering hooks on modules after passing them through "
                                 "make_graphed_callables is allowed.")
        fwd, bwd = CUDAGraph(), CUDAGraph()
        with graph(fwd):
            res = fn(*args)
        with graph(bwd):
            pass

        def run(*a, _f=fwd, _b=bwd, _r=res):
            _f.replay()
            _b.replay()
            return _r
        out.append(run)
    return out[0] if single else tuple(out)
