from torch._dynamo.utils import counters


def log_cudagraph_skip_and_bump_counter(msg):
    counters["inductor"]["cudagraph_skips"] += 1
