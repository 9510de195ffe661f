from .utils import counters


class Unsupported(Exception):
    def __init__(self, msg):
        super().__init__(msg)
        self.msg = msg
        self.real_stack = []

    def add_to_stats(self, category="unimplemented"):
        counters[category][self.msg] += 1
