"""Serving SentenceEncoder with one CUDA graph per batch-size bucket.

Everything here is graph-safe: static input buffers are filled with copy_ before each
replay, requests are padded up to the next bucket, all graphs share one memory pool,
and results are cloned out of the static output before the next replay overwrites it.
"""
import time

import torch

from encoder import SentenceEncoder

BUCKETS = (1, 2, 4, 8, 16, 32, 64)
MAX_LEN = 128


class GraphedEncoder:
    def __init__(self, model, buckets=BUCKETS, max_len=MAX_LEN):
        self.model = model
        self.buckets = tuple(sorted(buckets))
        self.max_len = max_len
        self.pool = torch.cuda.graph_pool_handle()
        self.graphs = {}
        self.inputs = {}
        self.outputs = {}

    @torch.no_grad()
    def capture(self):
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for bs in self.buckets:
                tokens = torch.zeros(bs, self.max_len, dtype=torch.long, device="cuda")
                pad = torch.zeros(bs, self.max_len, dtype=torch.bool, device="cuda")
                for _ in range(3):
                    self.model(tokens, pad)
        torch.cuda.current_stream().wait_stream(side)

        # Largest first, so smaller graphs reuse the pool's blocks.
        for bs in reversed(self.buckets):
            static_tokens = torch.zeros(bs, self.max_len, dtype=torch.long, device="cuda")
            static_pad = torch.ones(bs, self.max_len, dtype=torch.bool, device="cuda")
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g, pool=self.pool):
                static_out = self.model(static_tokens, static_pad)
            self.graphs[bs] = g
            self.inputs[bs] = (static_tokens, static_pad)
            self.outputs[bs] = static_out

    def _bucket(self, n):
        for bs in self.buckets:
            if bs >= n:
                return bs
        raise ValueError(f"batch of {n} is larger than the largest bucket {self.buckets[-1]}")

    @torch.no_grad()
    def encode(self, tokens, pad):
        n, t = tokens.shape
        bs = self._bucket(n)
        static_tokens, static_pad = self.inputs[bs]
        static_tokens.zero_()
        static_pad.fill_(True)
        static_tokens[:n, :t].copy_(tokens)
        static_pad[:n, :t].copy_(pad)
        static_pad[n:, 0] = False  # padded rows keep one real token: no all -inf rows
        self.graphs[bs].replay()
        return self.outputs[bs][:n].clone()


def main():
    model = SentenceEncoder(max_len=MAX_LEN).cuda().eval()
    server = GraphedEncoder(model)
    server.capture()

    for n in (1, 3, 8, 20, 64):
        tokens = torch.randint(0, 8192, (n, 96), device="cuda")
        lengths = torch.randint(1, 97, (n,), device="cuda")
        pad = torch.arange(96, device="cuda")[None, :] >= lengths[:, None]
        start = time.perf_counter()
        emb = server.encode(tokens, pad)
        torch.cuda.synchronize()
        ms = (time.perf_counter() - start) * 1e3
        print(f"batch {n:3d}: {tuple(emb.shape)} in {ms:.2f} ms, norm {emb.norm(dim=-1).mean().item():.3f}")


if __name__ == "__main__":
    main()
