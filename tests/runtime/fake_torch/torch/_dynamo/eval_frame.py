class _TorchCompileWrapper:
    """What torch.compile hands Dynamo as its backend: its options."""
    def __init__(self, mode, options, backend):
        self.compiler_name = backend
        self.config = {}
        if mode == "reduce-overhead":
            self.config["triton.cudagraphs"] = True
        self.config.update(options or {})


def optimize(model, mode, options, backend):
    compiler_fn = _TorchCompileWrapper(mode, options, backend)
    fn = model.forward if hasattr(model, "forward") else model
    state = {}

    def _fn(*args):
        if "compiled" not in state:
            from . import convert_frame
            state["compiled"] = convert_frame.convert_frame(fn, compiler_fn)
        return state["compiled"](*args)
    return _fn
