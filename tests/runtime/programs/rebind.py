import torch


def main():
    static_x = torch.ones(4, device="cuda")
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        out = static_x * 2
    for step in range(3):
        batch = torch.randn(4, device="cuda")
        static_x = batch  # expect: CG504
        g.replay()


main()
