# The rows the word-order trainer (text_cnn.py) reads, written by training/trainers/text-cnn-rows.ts with the
# serving code's own n-gram and token ids: each row's set, label, fold, n-gram ids, token ids and (with
# --mean-hidden) its word-vector input; the shared word vectors; and each head's targets and row weights.
import json
import os

import numpy as np
import torch


class Rows:
    def __init__(self, args):
        self.meta = json.load(open(os.path.join(args.data, 'meta.json')))
        self.rows = np.fromfile(os.path.join(args.data, 'rows.bin'), dtype=np.int32).reshape(-1, 5)
        self.bag_all = np.fromfile(os.path.join(args.data, 'bag.bin'), dtype=np.int32)
        self.seq_all = np.fromfile(os.path.join(args.data, 'seq.bin'), dtype=np.int32)
        self.bag_off = np.concatenate([[0], np.cumsum(self.rows[:, 3])])
        self.seq_off = np.concatenate([[0], np.cumsum(self.rows[:, 4])])
        self.names = [s['name'] for s in self.meta['sets']]
        self.set_of = self.rows[:, 0]
        self.label = self.rows[:, 1].astype(np.float32)
        self.vec = None
        if args.mean_hidden:
            vec = np.fromfile(os.path.join(args.data, 'vec.bin'), dtype=np.float32)
            self.vec = torch.from_numpy(vec.reshape(len(self.rows), self.meta['vecDim']))
        self.fold = self.rows[:, 2] == 1
        self.sid = {n: i for i, n in enumerate(self.names)}

    def batch(self, idx, widths):
        """The model's inputs for the rows `idx`: n-gram ids, offsets and weights, padded token ids, lengths."""
        bl, bo, bw, ln = [], [], [], []
        for i in idx:
            ids = self.bag_all[self.bag_off[i]:self.bag_off[i + 1]]
            bo.append(sum(len(x) for x in bl))
            bl.append(ids)
            bw.append(np.full(len(ids), 1.0 / max(1, len(ids)), dtype=np.float32))
            ln.append(self.seq_off[i + 1] - self.seq_off[i])
        L = max(max(widths) if widths else 1, max(ln))
        seq = np.zeros((len(idx), L), dtype=np.int64)
        for j, i in enumerate(idx):
            s = self.seq_all[self.seq_off[i]:self.seq_off[i + 1]]
            seq[j, :len(s)] = s
        bag = torch.from_numpy(np.concatenate(bl).astype(np.int64)) if bl else torch.zeros(0, dtype=torch.int64)
        vec = self.vec[torch.from_numpy(np.asarray(idx, dtype=np.int64))] if self.vec is not None else None
        return (bag, torch.tensor(bo, dtype=torch.int64), torch.from_numpy(np.concatenate(bw)),
                torch.from_numpy(seq), torch.tensor(ln, dtype=torch.int64), vec)


def word_vectors(args, meta):
    """The shared int8 word vectors (model-store/word-vectors), dequantised and scaled by --scale: [V, D]."""
    V, D = meta['vocab'], meta['vdim']
    q = np.fromfile(os.path.join(args.vectors, 'vectors.bin'), dtype=np.int8).reshape(V, D).astype(np.float32)
    sc = np.fromfile(os.path.join(args.vectors, 'scales.bin'), dtype=np.float32)
    return torch.from_numpy(q * sc[:, None] * args.scale)


def class_targets(args, data, is_train, served_sets):
    """--classes: the served head's one-hot targets (all zeros for a row no label fits) and row weights on the
    served sets' rows and the negatives' (rows whose label is -1 where no label fits)."""
    sid, set_of, n = data.sid, data.set_of, len(data.rows)
    lab = data.rows[:, 1]
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
        bounded = np.minimum(10, mean / np.maximum(mass[np.clip(lab, 0, None)], 1e-9))
        factor = np.where((lab >= 0) & ~skip, bounded, 1.0)
        weight = (weight * factor).astype(np.float32)
    return target, weight[:, None]


def head_targets(args, data, is_train, served_sets, heads):
    """One logit per head: targets and weights per head, weight 0 where a head has no label for the row."""
    sid, set_of, n = data.sid, data.set_of, len(data.rows)
    target = np.zeros((n, len(heads)), dtype=np.float32)
    weight = np.zeros((n, len(heads)), dtype=np.float32)
    for h, name in enumerate(heads):
        own = served_sets if name == 'served' else {sid[name]}
        for s in own | {sid[x] for x in args.negatives.split(',') if x}:
            m = is_train & (set_of == s)
            target[m, h] = data.label[m]
            weight[m, h] = args.hate_weight if (name == 'served' and s == sid.get('hate')) else 1.0
        if args.row_weights:
            weight[:, h] *= np.fromfile(os.path.join(args.data, 'weight.bin'), dtype=np.float32)
        # class balance: each class weighs half of the head's mass (at most 10x)
        pos = (weight[:, h] * target[:, h]).sum()
        neg = (weight[:, h] * (1 - target[:, h])).sum()
        tot = pos + neg
        weight[:, h] *= np.where(target[:, h] == 1, min(10, tot / (2 * pos)), min(10, tot / (2 * neg)))
    return target, weight


def targets(args, data, heads):
    """The training rows (is_train) and every row's targets and weights."""
    sid, names = data.sid, data.names
    train_sets = [sid[s] for s in names if not s.endswith('-val') and s != 'probe']
    is_train = np.isin(data.set_of, train_sets) & (~data.fold if args.without_fold else True)
    served_sets = {sid[s] for s in args.train_sets.split(',')}
    if args.classes:
        target, weight = class_targets(args, data, is_train, served_sets)
    else:
        target, weight = head_targets(args, data, is_train, served_sets, heads)
    return is_train, target, weight
