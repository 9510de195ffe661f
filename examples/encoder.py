"""A graph-safe bidirectional encoder: padding is handled with masked_fill on a
fixed-shape mask, so nothing here reads device data on the host or produces a
data-dependent shape. serve.py captures it once per batch-size bucket."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x, key_padding_mask):
        b, t, d = x.shape
        q, k, v = self.qkv(x).split(d, dim=-1)
        q = q.view(b, t, self.num_heads, self.head_dim).transpose(1, 2)
        k = k.view(b, t, self.num_heads, self.head_dim).transpose(1, 2)
        v = v.view(b, t, self.num_heads, self.head_dim).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        # key_padding_mask: (b, t), True where the token is padding.
        att = att.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, d)
        return self.out(y)


class EncoderLayer(nn.Module):
    def __init__(self, dim, num_heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = SelfAttention(dim, num_heads)
        self.ln2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, x, key_padding_mask):
        x = x + self.attn(self.ln1(x), key_padding_mask)
        return x + self.mlp(self.ln2(x))


class SentenceEncoder(nn.Module):
    """Returns one L2-normalised embedding per sequence (mean over real tokens)."""

    def __init__(self, vocab_size=8192, dim=256, num_heads=4, depth=4, max_len=128):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab_size, dim)
        self.pos_emb = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList([EncoderLayer(dim, num_heads) for _ in range(depth)])
        self.ln_f = nn.LayerNorm(dim)

    def forward(self, tokens, key_padding_mask):
        pos = torch.arange(tokens.shape[1], device=tokens.device)
        x = self.tok_emb(tokens) + self.pos_emb(pos)
        for layer in self.layers:
            x = layer(x, key_padding_mask)
        x = self.ln_f(x)
        keep = (~key_padding_mask).unsqueeze(-1).to(x.dtype)
        pooled = (x * keep).sum(dim=1) / keep.sum(dim=1).clamp_min(1.0)
        return F.normalize(pooled, dim=-1)
