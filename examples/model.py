"""A small decoder-only transformer, the kind found in many training repos.

It has two CUDA-graph capture hazards, both a few calls below the capture site in
train_graphed.py:

- Block.forward branches on `padding_mask.any()` (a host read of device data);
- build_attention_bias() calls `nonzero()`, whose output shape depends on the data
  (reached as TinyTransformer.forward -> Block.forward -> CausalSelfAttention.forward
  -> build_attention_bias).

encoder.py holds the graph-safe version of the same attention.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def build_attention_bias(padding_mask, num_heads):
    """Additive attention bias that blocks attention to padded key positions."""
    batch, seq_len = padding_mask.shape
    bias = torch.zeros(batch, num_heads, seq_len, seq_len, device=padding_mask.device)
    pad_positions = padding_mask.nonzero()
    bias[pad_positions[:, 0], :, :, pad_positions[:, 1]] = float("-inf")
    return bias


class CausalSelfAttention(nn.Module):
    def __init__(self, dim, num_heads, max_len):
        super().__init__()
        assert dim % num_heads == 0
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)
        causal = torch.tril(torch.ones(max_len, max_len, dtype=torch.bool))
        self.register_buffer("causal", causal.view(1, 1, max_len, max_len))

    def forward(self, x, padding_mask=None):
        b, t, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=-1)
        q = q.view(b, t, self.num_heads, self.head_dim).transpose(1, 2)
        k = k.view(b, t, self.num_heads, self.head_dim).transpose(1, 2)
        v = v.view(b, t, self.num_heads, self.head_dim).transpose(1, 2)

        att = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        att = att.masked_fill(~self.causal[:, :, :t, :t], float("-inf"))
        if padding_mask is not None:
            att = att + build_attention_bias(padding_mask, self.num_heads)
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, d)
        return self.out(y)


class MLP(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, 4 * dim)
        self.proj = nn.Linear(4 * dim, dim)

    def forward(self, x):
        return self.proj(F.gelu(self.fc(x)))


class Block(nn.Module):
    def __init__(self, dim, num_heads, max_len):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = CausalSelfAttention(dim, num_heads, max_len)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = MLP(dim)

    def forward(self, x, padding_mask):
        if padding_mask.any():
            x = x + self.attn(self.ln1(x), padding_mask)
        else:
            x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class TinyTransformer(nn.Module):
    def __init__(self, vocab_size=8192, dim=256, num_heads=4, depth=4, max_len=256):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab_size, dim)
        self.pos_emb = nn.Embedding(max_len, dim)
        self.blocks = nn.ModuleList([Block(dim, num_heads, max_len) for _ in range(depth)])
        self.ln_f = nn.LayerNorm(dim)
        self.lm_head = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, tokens, padding_mask):
        t = tokens.shape[1]
        pos = torch.arange(t, device=tokens.device)
        x = self.tok_emb(tokens) + self.pos_emb(pos)
        for block in self.blocks:
            x = block(x, padding_mask)
        return self.lm_head(self.ln_f(x))
