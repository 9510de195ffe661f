class TorchDispatchMode:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False
