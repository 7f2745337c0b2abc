#!/usr/bin/python3
# The abuse model's trainer (npm run train -- abuse calls it; Debian: apt-get install -y python3-torch
# python3-numpy, run with /usr/bin/python3). Reads the rows training/trainers/text-cnn-rows.ts wrote (n-gram ids
# and token ids computed by the serving code) and trains, with a fixed seed on one CPU thread:
#   a hashed n-gram embedding bag (mean of its rows), as the text-classifier models have;
#   a 1-D convolution over the token sequence (frozen shared word vectors, plus learned rows for
#   tokens the table lacks), one filter bank per width, ReLU, max over positions;
#   their concatenation into one logit per head: 'served' (the answer, trained on the --train-sets),
#   and with --tasks, one per exported training set ('hate': HatEval's hateful), trained on that
#   set's own labels; ordinary texts are negatives for every head.
# The two tables (n-gram bag, rows of unknown tokens) are rounded to float16 at the end, as they are
# stored. Writes to --out: weights.json (config; tensors with shape and dtype, in file order),
# weights.bin (the tables float16, the rest float32), and z.bin: every exported row's logits, one per
# head (float32, computed with the stored weights).
import argparse
import json
import os

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ap = argparse.ArgumentParser()
ap.add_argument('--data', required=True)
ap.add_argument('--vectors', required=True)
ap.add_argument('--out', required=True)
ap.add_argument('--seed', type=int, default=23)
ap.add_argument('--epochs', type=int, default=8)
ap.add_argument('--lr', type=float, default=2e-3)
ap.add_argument('--batch', type=int, default=64)
ap.add_argument('--dim', type=int, default=32, help='embedding bag width (0: none)')
ap.add_argument('--filters', type=int, default=64, help='filters per width (0: no convolution)')
ap.add_argument('--widths', default='2,3,4')
ap.add_argument('--proj', type=int, default=0, help='a linear projection of the token vectors to this many dimensions before the convolution (0: none)')
ap.add_argument('--dropout', type=float, default=0.3)
ap.add_argument('--scale', type=float, default=0.2, help='word vectors are multiplied by this')
ap.add_argument('--train-sets', default='olid,ordinary', help='sets whose labels train the served head')
ap.add_argument('--tasks', default='', help='heads of their own: olid, hate (each trained on its set; ordinary texts negative)')
ap.add_argument('--hate-weight', type=float, default=1.0, help='weight of the hate rows in the served head')
ap.add_argument('--without-fold', action='store_true', help='leave the held-out fifth of the training rows out')
ap.add_argument('--wd', type=float, default=0.0)
ap.add_argument('--threads', type=int, default=1)
# options for other models than abuse (their defaults train abuse as before)
ap.add_argument('--negatives', default='ordinary', help='sets whose rows are negatives for every head')
ap.add_argument('--row-weights', action='store_true', help="multiply each row's weight by weight.bin (training/trainers/text-cnn-rows.ts writes it for weighted rows)")
ap.add_argument('--report', default='', help='sets reported after each epoch (default: olid-val, hate-val, ordinary-val): share called positive, F1 of the positive class, accuracy')
ap.add_argument('--stop-after', type=int, default=0, help='stop after this many epochs of the --epochs schedule (0: all)')
ap.add_argument('--classes', type=int, default=0, help='a served head of this many labels (the label column is the label index; -1: no label fits) instead of one logit; no --tasks')
ap.add_argument('--loss', default='softmax', choices=['softmax', 'sigmoid'], help='with --classes: one softmax over the labels, or a sigmoid per label (independent scores)')
ap.add_argument('--balance', action='store_true', help='with --classes: each label weighs alike in the loss (at most 10x)')
ap.add_argument('--balance-skip', default='', help='with --balance: these training sets (comma-separated) are left out of the label masses and keep their row weights, an addition on top of the balanced rest')
ap.add_argument('--bag-lr', type=float, default=0, help="the n-gram bag's learning rate (0: --lr)")
ap.add_argument('--mean-hidden', type=int, default=0, help="the text's word-vector input (vec.bin, lib/text/bag/sentence-input.ts) through this many ReLU units, beside the other parts (0: none)")
args = ap.parse_args()
if args.classes and args.tasks:
    raise SystemExit('--classes takes no --tasks')

torch.manual_seed(args.seed)
np.random.seed(args.seed)
torch.set_num_threads(args.threads)
torch.use_deterministic_algorithms(True)

meta = json.load(open(os.path.join(args.data, 'meta.json')))
rows = np.fromfile(os.path.join(args.data, 'rows.bin'), dtype=np.int32).reshape(-1, 5)
bag_all = np.fromfile(os.path.join(args.data, 'bag.bin'), dtype=np.int32)
seq_all = np.fromfile(os.path.join(args.data, 'seq.bin'), dtype=np.int32)
bag_off = np.concatenate([[0], np.cumsum(rows[:, 3])])
seq_off = np.concatenate([[0], np.cumsum(rows[:, 4])])
names = [s['name'] for s in meta['sets']]
set_of = rows[:, 0]
label = rows[:, 1].astype(np.float32)
vec = None
if args.mean_hidden:
    vec = torch.from_numpy(np.fromfile(os.path.join(args.data, 'vec.bin'), dtype=np.float32).reshape(len(rows), meta['vecDim']))
fold = rows[:, 2] == 1

V, D = meta['vocab'], meta['vdim']
K = meta['seq']['oovBuckets']
q = np.fromfile(os.path.join(args.vectors, 'vectors.bin'), dtype=np.int8).reshape(V, D).astype(np.float32)
sc = np.fromfile(os.path.join(args.vectors, 'scales.bin'), dtype=np.float32)
glove = torch.from_numpy(q * sc[:, None] * args.scale)
widths = [int(w) for w in args.widths.split(',')] if args.filters > 0 else []
tasks = [t for t in args.tasks.split(',') if t]
heads = ['served'] + tasks
# outputs: one logit per head, or with --classes the served head's labels
outputs = args.classes or len(heads)
B = meta['bag']['buckets']


class Model(nn.Module):
    def __init__(self):
        super().__init__()
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

    def forward(self, bag_ids, bag_offsets, bag_weights, seq, lengths, v=None):
        parts = []
        if args.dim > 0:
            parts.append(self.bag(bag_ids, bag_offsets, per_sample_weights=bag_weights))
        if widths:
            known = seq < V
            x = torch.where(known[:, :, None], glove[torch.where(known, seq, 0)], self.oov(torch.where(known, 0, seq - V)))
            if args.proj:
                x = self.proj(x)
            x = x.transpose(1, 2)  # [n, D, L]; padding rows are zeroed below
            mask = (torch.arange(seq.shape[1])[None, :] < lengths[:, None]).float()
            x = x * mask[:, None, :]
            for k, conv in zip(widths, self.convs):
                h = F.relu(conv(x))  # [n, F, L - k + 1]
                # windows t = 0 .. max(n - k, 0) are the text's; ReLU >= 0, so zeroing the others keeps the max
                valid = (torch.arange(h.shape[2])[None, :] <= torch.clamp(lengths - k, min=0)[:, None]).float()
                parts.append((h * valid[:, None, :]).max(dim=2).values)
        if args.mean_hidden:
            parts.append(F.relu(self.mean(v)))
        return self.out(self.drop(torch.cat(parts, 1)))


def batch_of(idx):
    bl, bo, bw, ln = [], [], [], []
    for i in idx:
        ids = bag_all[bag_off[i]:bag_off[i + 1]]
        bo.append(sum(len(x) for x in bl))
        bl.append(ids)
        bw.append(np.full(len(ids), 1.0 / max(1, len(ids)), dtype=np.float32))
        ln.append(seq_off[i + 1] - seq_off[i])
    L = max(max(widths) if widths else 1, max(ln))
    seq = np.zeros((len(idx), L), dtype=np.int64)
    for j, i in enumerate(idx):
        s = seq_all[seq_off[i]:seq_off[i + 1]]
        seq[j, :len(s)] = s
    return (torch.from_numpy(np.concatenate(bl).astype(np.int64)) if bl else torch.zeros(0, dtype=torch.int64),
            torch.tensor(bo, dtype=torch.int64), torch.from_numpy(np.concatenate(bw)), torch.from_numpy(seq), torch.tensor(ln, dtype=torch.int64),
            vec[torch.from_numpy(np.asarray(idx, dtype=np.int64))] if vec is not None else None)


sid = {n: i for i, n in enumerate(names)}
train_sets = [sid[s] for s in names if not s.endswith('-val') and s != 'probe']
is_train = np.isin(set_of, train_sets) & (~fold if args.without_fold else True)
served_sets = {sid[s] for s in args.train_sets.split(',')}
n = len(rows)
if args.classes:
    # the served head's labels: one-hot targets (all zeros for a row no label fits), row weights on the
    # served sets' rows and the negatives' (rows whose label is -1 where no label fits)
    lab = rows[:, 1]
    member = is_train & np.isin(set_of, list(served_sets | {sid[x] for x in args.negatives.split(',') if x}))
    target = np.zeros((n, args.classes), dtype=np.float32)
    ok = member & (lab >= 0)
    target[np.nonzero(ok)[0], lab[ok]] = 1
    weight = member.astype(np.float32)
    if args.row_weights:
        weight *= np.fromfile(os.path.join(args.data, 'weight.bin'), dtype=np.float32)
    if args.balance:
        # a set not exported (e.g. a domain the data left empty) has no rows to skip
        skip = np.isin(set_of, [sid[x] for x in args.balance_skip.split(',') if x in sid])
        counted = np.where(skip, 0, weight)
        mass = np.array([(counted * (lab == c)).sum() for c in range(args.classes)])
        mean = counted.sum() / (args.classes + (1 if (member & ~skip & (lab < 0)).any() else 0))
        factor = np.where((lab >= 0) & ~skip, np.minimum(10, mean / np.maximum(mass[np.clip(lab, 0, None)], 1e-9)), 1.0)
        weight = (weight * factor).astype(np.float32)
    weight = weight[:, None]
else:
    # targets and weights per head: weight 0 where a head has no label for the row
    target = np.zeros((n, len(heads)), dtype=np.float32)
    weight = np.zeros((n, len(heads)), dtype=np.float32)
    for h, name in enumerate(heads):
        own = served_sets if name == 'served' else {sid[name]}
        for s in own | {sid[x] for x in args.negatives.split(',') if x}:
            m = is_train & (set_of == s)
            target[m, h] = label[m]
            weight[m, h] = args.hate_weight if (name == 'served' and s == sid.get('hate')) else 1.0
        if args.row_weights:
            weight[:, h] *= np.fromfile(os.path.join(args.data, 'weight.bin'), dtype=np.float32)
        # class balance: each class weighs half of the head's mass (at most 10x)
        pos = (weight[:, h] * target[:, h]).sum()
        neg = (weight[:, h] * (1 - target[:, h])).sum()
        tot = pos + neg
        weight[:, h] *= np.where(target[:, h] == 1, min(10, tot / (2 * pos)), min(10, tot / (2 * neg)))

model = Model()
sparse = [p for name, p in model.named_parameters() if name in ('bag.weight', 'oov.weight')]
dense = [p for name, p in model.named_parameters() if name not in ('bag.weight', 'oov.weight')]
if args.bag_lr and args.dim > 0:
    groups = [{'params': [model.bag.weight], 'lr': args.bag_lr}] + ([{'params': [model.oov.weight]}] if widths else [])
    opts = [torch.optim.Adam(dense, lr=args.lr, weight_decay=args.wd), torch.optim.SparseAdam(groups, lr=args.lr)]
else:
    opts = [torch.optim.Adam(dense, lr=args.lr, weight_decay=args.wd)] + ([torch.optim.SparseAdam(sparse, lr=args.lr)] if sparse else [])
order = np.nonzero(is_train)[0]
steps = args.epochs * ((len(order) + args.batch - 1) // args.batch)
scheds = [torch.optim.lr_scheduler.LambdaLR(o, lambda s: 1 - s / steps) for o in opts]
rng = np.random.default_rng(args.seed)


def logits(idx, bs=512):
    model.eval()
    out = []
    with torch.no_grad():
        for a in range(0, len(idx), bs):
            out.append(model(*batch_of(idx[a:a + bs])).numpy())
    model.train()
    return np.concatenate(out) if out else np.zeros((0, outputs), dtype=np.float32)


def macro_f1(y, p):
    f = []
    for c in (0, 1):
        tp = ((p == c) & (y == c)).sum(); fp = ((p == c) & (y != c)).sum(); fn = ((p != c) & (y == c)).sum()
        f.append(0 if tp == 0 else 2 * tp / (2 * tp + fp + fn))
    return (f[0] + f[1]) / 2


def report_sets(tag):
    msg = []
    for s in args.report.split(','):
        idx = np.nonzero(set_of == sid[s])[0]
        p = (logits(idx)[:, 0] >= 0).astype(int)
        y = label[idx].astype(int)
        tp = ((p == 1) & (y == 1)).sum()
        f1 = 0 if tp == 0 else 2 * tp / (p.sum() + y.sum())
        msg.append(f'{s} called {p.mean():.4f} F1 {f1:.4f} acc {(p == y).mean():.4f}')
    print(f'  {tag}: ' + ', '.join(msg), flush=True)


def report_classes(tag):
    msg = []
    for s in args.report.split(','):
        idx = np.nonzero(set_of == sid[s])[0]
        z = logits(idx)
        y = rows[idx, 1]
        top = z.argmax(1)
        has = y >= 0
        m = f'{s} acc {(top[has] == y[has]).mean():.4f}' if has.any() else s
        if (~has).any():
            m += f' none-low {(z[~has].max(1) < 0).mean():.4f}'
        msg.append(m)
    print(f'  {tag}: ' + ', '.join(msg), flush=True)


def report(tag):
    if args.classes:
        return report_classes(tag)
    if args.report:
        return report_sets(tag)
    msg = []
    for s in ['olid-val', 'hate-val', 'ordinary-val']:
        idx = np.nonzero(set_of == sid[s])[0]
        p = 1 / (1 + np.exp(-logits(idx)[:, 0]))
        y = label[idx]
        msg.append(f'{s} {np.mean(p >= 0.5):.4f}' if s == 'ordinary-val' else f'{s} {macro_f1(y, (p >= 0.5).astype(int)):.4f}')
    print(f'  {tag}: ' + ', '.join(msg), flush=True)


for epoch in range(args.stop_after or args.epochs):
    rng.shuffle(order)
    total = 0.0
    for a in range(0, len(order), args.batch):
        idx = order[a:a + args.batch]
        z = model(*batch_of(idx))
        if args.classes and args.loss == 'softmax':
            loss = (F.cross_entropy(z, torch.from_numpy(target[idx]), reduction='none') * torch.from_numpy(weight[idx][:, 0])).sum() / len(idx)
        else:
            loss = (F.binary_cross_entropy_with_logits(z, torch.from_numpy(target[idx]), reduction='none') * torch.from_numpy(weight[idx])).sum() / len(idx)
        for o in opts:
            o.zero_grad()
        loss.backward()
        for o in opts:
            o.step()
        for sc_ in scheds:
            sc_.step()
        with torch.no_grad():
            if args.dim > 0:
                model.bag.weight[0].zero_()
        total += loss.item() * len(idx)
    report(f'epoch {epoch + 1} loss {total / len(order):.4f}')

with torch.no_grad():
    for table in ([model.bag.weight] if args.dim > 0 else []) + ([model.oov.weight] if widths else []):
        table.copy_(table.half().float())
os.makedirs(args.out, exist_ok=True)
logits(np.arange(n)).astype(np.float32).tofile(os.path.join(args.out, 'z.bin'))
HALF = ('bag', 'oov')
tensors = []
if args.dim > 0:
    tensors.append(('bag', model.bag.weight))
if widths:
    tensors.append(('oov', model.oov.weight))
    if args.proj:
        tensors.append(('proj.kernel', model.proj.weight))  # [proj, D]
    for k, conv in zip(widths, model.convs):
        tensors.append((f'conv{k}.kernel', conv.weight))  # [filters, D, k]
        tensors.append((f'conv{k}.bias', conv.bias))
if args.mean_hidden:
    tensors.append(('mean.kernel', model.mean.weight))  # [hidden, vecDim]
    tensors.append(('mean.bias', model.mean.bias))
tensors.append(('out.kernel', model.out.weight))  # [heads or labels, width]
tensors.append(('out.bias', model.out.bias))
with open(os.path.join(args.out, 'weights.bin'), 'wb') as f:
    for name, t in tensors:
        f.write(t.detach().numpy().astype(np.float16 if name in HALF else np.float32).tobytes())
json.dump({'heads': heads, 'classes': args.classes, 'loss': args.loss if args.classes else 'sigmoid', 'meanHidden': args.mean_hidden, 'dim': args.dim, 'filters': args.filters, 'widths': widths, 'scale': args.scale,
           'tensors': [{'name': name, 'shape': list(t.shape), 'dtype': 'float16' if name in HALF else 'float32'} for name, t in tensors], 'args': vars(args)},
          open(os.path.join(args.out, 'weights.json'), 'w'), indent=1)
