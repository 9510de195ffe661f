from .optimizer import Optimizer  # noqa: F401


class SGD(Optimizer):
    def __init__(self, params, lr=0.1, momentum=0.0):
        super().__init__(params, dict(lr=lr, momentum=momentum))

    def _step(self):
        pass
