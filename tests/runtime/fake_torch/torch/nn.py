class Module:
    def __init__(self):
        self._forward_hooks = {}

    def register_forward_hook(self, fn):
        self._forward_hooks[len(self._forward_hooks)] = fn

    def __call__(self, *a):
        return self.forward(*a)

    def parameters(self):
        return list(getattr(self, "_params", []))
