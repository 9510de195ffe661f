"""Training TinyTransformer with the whole step (forward, backward, optimizer update)
captured in one CUDA graph and replayed every iteration.

This file is a realistic first attempt and contains the mistakes people make when they
wrap an existing training step in `torch.cuda.graph`; see README.md for the list.
"""
import logging
import math

import torch
import torch.nn.functional as F

from model import TinyTransformer

logger = logging.getLogger("train")

BATCH, SEQ, VOCAB = 16, 128, 8192
MOMENTUM = 0.9
WEIGHT_DECAY = 0.01
BASE_LR = 3e-3
WARMUP, TOTAL_STEPS = 100, 2000


def lr_at(step):
    """Linear warm-up, then cosine decay."""
    if step < WARMUP:
        return BASE_LR * (step + 1) / WARMUP
    progress = (step - WARMUP) / max(1, TOTAL_STEPS - WARMUP)
    return 0.5 * BASE_LR * (1.0 + math.cos(math.pi * progress))


def synthetic_batches(n):
    for _ in range(n):
        tokens = torch.randint(0, VOCAB, (BATCH, SEQ + 1), device="cuda")
        lengths = torch.randint(SEQ // 2, SEQ + 1, (BATCH,), device="cuda")
        pad = torch.arange(SEQ, device="cuda")[None, :] >= lengths[:, None]
        yield tokens[:, :-1], tokens[:, 1:], pad


def main():
    model = TinyTransformer(vocab_size=VOCAB, max_len=SEQ).cuda()
    params = [p for p in model.parameters() if p.requires_grad]
    momentum_bufs = [torch.zeros_like(p) for p in params]

    static_tokens = torch.zeros(BATCH, SEQ, dtype=torch.long, device="cuda")
    static_targets = torch.zeros(BATCH, SEQ, dtype=torch.long, device="cuda")
    static_pad = torch.zeros(BATCH, SEQ, dtype=torch.bool, device="cuda")
    lr = lr_at(0)

    # Warm-up on a side stream so cuBLAS/cuDNN handles and autograd state exist.
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            logits = model(static_tokens, static_pad)
            F.cross_entropy(logits.view(-1, VOCAB), static_targets.view(-1)).backward()
            model.zero_grad(set_to_none=False)
    torch.cuda.current_stream().wait_stream(side)

    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        logits = model(static_tokens, static_pad)
        loss = F.cross_entropy(logits.view(-1, VOCAB), static_targets.view(-1))
        logger.info("loss %.4f", loss.item())
        loss.backward()
        with torch.no_grad():
            for p, buf in zip(params, momentum_bufs):
                buf.mul_(MOMENTUM).add_(p.grad)
                p.mul_(1.0 - lr * WEIGHT_DECAY)
                p.add_(buf, alpha=-lr)
                p.grad.zero_()
        print("captured one training step")

    for step, (tokens, targets, pad) in enumerate(synthetic_batches(TOTAL_STEPS)):
        static_tokens.copy_(tokens)
        static_targets.copy_(targets)
        static_pad.copy_(pad)
        graph.replay()
        lr = lr_at(step + 1)
        if step % 100 == 0:
            logger.info("step %d loss %.4f lr %.2e", step, loss.item(), lr)


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
