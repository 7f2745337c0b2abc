# The word-order model the trainer (text_cnn.py) fits, as lib/text/cnn/classifier.ts serves it: a hashed n-gram
# embedding bag (mean of its rows); a 1-D convolution over the token sequence (frozen shared word vectors, plus
# learned rows for tokens the table lacks), one filter bank per width, ReLU, max over positions; with
# --mean-hidden the text's word-vector input through ReLU units; all side by side into the output layer.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, args, meta, widths, outputs, glove):
        super().__init__()
        self.args, self.widths, self.glove = args, widths, glove
        self.V, D, K, B = meta['vocab'], meta['vdim'], meta['seq']['oovBuckets'], meta['bag']['buckets']
        width = 0
        if args.dim > 0:
            self.bag = nn.EmbeddingBag(B, args.dim, mode='sum', sparse=True)
            nn.init.uniform_(self.bag.weight, -1 / args.dim, 1 / args.dim)
            with torch.no_grad():
                self.bag.weight[0].zero_()
            width += args.dim
        if widths:
            self.oov = nn.Embedding(K, D, sparse=True)
            # zeros: a token no training text had adds nothing (a random row would add noise)
            nn.init.zeros_(self.oov.weight)
            cin = args.proj or D
            if args.proj:
                self.proj = nn.Linear(D, args.proj, bias=False)
            self.convs = nn.ModuleList([nn.Conv1d(cin, args.filters, k) for k in widths])
            width += args.filters * len(widths)
        if args.mean_hidden:
            self.mean = nn.Linear(meta['vecDim'], args.mean_hidden)
            width += args.mean_hidden
        self.drop = nn.Dropout(args.dropout)
        self.out = nn.Linear(width, outputs)

    def convolved(self, seq, lengths):
        """Each width's filters over the text's tokens, max over the text's own windows: [n, filters] each."""
        V, parts = self.V, []
        known = seq < V
        oov = self.oov(torch.where(known, 0, seq - V))
        x = torch.where(known[:, :, None], self.glove[torch.where(known, seq, 0)], oov)
        if self.args.proj:
            x = self.proj(x)
        x = x.transpose(1, 2)  # [n, D, L]; padding rows are zeroed below
        mask = (torch.arange(seq.shape[1])[None, :] < lengths[:, None]).float()
        x = x * mask[:, None, :]
        for k, conv in zip(self.widths, self.convs):
            h = F.relu(conv(x))  # [n, F, L - k + 1]
            # windows t = 0 .. max(n - k, 0) are the text's; ReLU >= 0, so zeroing the others keeps the max
            valid = (torch.arange(h.shape[2])[None, :] <= torch.clamp(lengths - k, min=0)[:, None]).float()
            parts.append((h * valid[:, None, :]).max(dim=2).values)
        return parts

    def forward(self, bag_ids, bag_offsets, bag_weights, seq, lengths, v=None):
        parts = []
        if self.args.dim > 0:
            parts.append(self.bag(bag_ids, bag_offsets, per_sample_weights=bag_weights))
        if self.widths:
            parts += self.convolved(seq, lengths)
        if self.args.mean_hidden:
            parts.append(F.relu(self.mean(v)))
        return self.out(self.drop(torch.cat(parts, 1)))
