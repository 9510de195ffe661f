"""Overlapping two independent towers of a retrieval model on two streams inside one
captured graph.

capture_overlapped() forgets to join the side stream back into the capturing stream
before the capture ends (CG402): capture_end() fails with
cudaErrorStreamCaptureUnjoined. capture_overlapped_fixed() is the correct version.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Tower(nn.Module):
    def __init__(self, dim, out_dim):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(dim, 2 * dim), nn.ReLU(), nn.Linear(2 * dim, out_dim)
        )

    def forward(self, x):
        return F.normalize(self.net(x), dim=-1)


class TwoTowerRetriever(nn.Module):
    def __init__(self, query_dim, doc_dim, emb_dim=128):
        super().__init__()
        self.query_tower = Tower(query_dim, emb_dim)
        self.doc_tower = Tower(doc_dim, emb_dim)


def warm_up(model, queries, docs):
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            model.query_tower(queries)
            model.doc_tower(docs)
    torch.cuda.current_stream().wait_stream(side)


@torch.no_grad()
def capture_overlapped(model, queries, docs):
    doc_stream = torch.cuda.Stream()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        doc_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(doc_stream):
            d = model.doc_tower(docs)
        q = model.query_tower(queries)
        scores = q @ d.t()
    return g, scores


@torch.no_grad()
def capture_overlapped_fixed(model, queries, docs):
    doc_stream = torch.cuda.Stream()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        doc_stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(doc_stream):
            d = model.doc_tower(docs)
        q = model.query_tower(queries)
        torch.cuda.current_stream().wait_stream(doc_stream)
        scores = q @ d.t()
    return g, scores


def main():
    model = TwoTowerRetriever(64, 256).cuda().eval()
    static_queries = torch.randn(32, 64, device="cuda")
    static_docs = torch.randn(1024, 256, device="cuda")
    warm_up(model, static_queries, static_docs)

    g, static_scores = capture_overlapped_fixed(model, static_queries, static_docs)
    for _ in range(10):
        static_queries.copy_(torch.randn(32, 64, device="cuda"))
        g.replay()
    top = static_scores.topk(5, dim=-1).indices
    print("top documents for query 0:", top[0].tolist())


if __name__ == "__main__":
    main()
