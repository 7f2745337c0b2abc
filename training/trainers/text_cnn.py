#!/usr/bin/python3
# The word-order models' trainer (npm run train -- abuse, sarcasm, sentiment, emotion, intent, new_intent and
# taxonomy call it through training/trainers/text-cnn.ts; Debian: apt-get install -y python3-torch python3-numpy,
# run with /usr/bin/python3). Reads the rows training/trainers/text-cnn-rows.ts wrote (n-gram ids and token ids
# computed by the serving code, text_cnn_data.py) and trains, with a fixed seed on one CPU thread, the model of
# text_cnn_model.py: its concatenated parts into one logit per head: 'served' (the answer, trained on the
# --train-sets), and with --tasks, one per exported training set ('hate': HatEval's hateful), trained on that
# set's own labels; ordinary texts are negatives for every head. Options: text_cnn_options.py.
# The two tables (n-gram bag, rows of unknown tokens) are rounded to float16 at the end, as they are
# stored. Writes to --out: weights.json (config; tensors with shape and dtype, in file order),
# weights.bin (the tables float16, the rest float32), and z.bin: every exported row's logits, one per
# head (float32, computed with the stored weights).
import json
import os

import numpy as np
import torch
import torch.nn.functional as F

from text_cnn_data import Rows, targets, word_vectors
from text_cnn_model import Model
from text_cnn_options import parse
from text_cnn_report import Reporter

HALF = ('bag', 'oov')


def optimisers(args, model, widths):
    """Adam for the dense weights, SparseAdam for the two tables (the bag at --bag-lr when given)."""
    tables = ('bag.weight', 'oov.weight')
    sparse = [p for name, p in model.named_parameters() if name in tables]
    dense = [p for name, p in model.named_parameters() if name not in tables]
    adam = torch.optim.Adam(dense, lr=args.lr, weight_decay=args.wd)
    if args.bag_lr and args.dim > 0:
        groups = [{'params': [model.bag.weight], 'lr': args.bag_lr}]
        groups += [{'params': [model.oov.weight]}] if widths else []
        return [adam, torch.optim.SparseAdam(groups, lr=args.lr)]
    return [adam] + ([torch.optim.SparseAdam(sparse, lr=args.lr)] if sparse else [])


def loss_of(args, z, target, weight, idx):
    if args.classes and args.loss == 'softmax':
        each = F.cross_entropy(z, torch.from_numpy(target[idx]), reduction='none')
        return (each * torch.from_numpy(weight[idx][:, 0])).sum() / len(idx)
    each = F.binary_cross_entropy_with_logits(z, torch.from_numpy(target[idx]), reduction='none')
    return (each * torch.from_numpy(weight[idx])).sum() / len(idx)


def train(args, model, data, widths, targets_of, reporter):
    is_train, target, weight = targets_of
    opts = optimisers(args, model, widths)
    order = np.nonzero(is_train)[0]
    steps = args.epochs * ((len(order) + args.batch - 1) // args.batch)
    scheds = [torch.optim.lr_scheduler.LambdaLR(o, lambda s: 1 - s / steps) for o in opts]
    rng = np.random.default_rng(args.seed)
    for epoch in range(args.stop_after or args.epochs):
        rng.shuffle(order)
        total = 0.0
        for a in range(0, len(order), args.batch):
            idx = order[a:a + args.batch]
            loss = loss_of(args, model(*data.batch(idx, widths)), target, weight, idx)
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
        reporter.report(f'epoch {epoch + 1} loss {total / len(order):.4f}')


def stored_tensors(args, model, widths):
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
    return tensors


def write(args, model, widths, heads, reporter, n):
    with torch.no_grad():
        for table in ([model.bag.weight] if args.dim > 0 else []) + ([model.oov.weight] if widths else []):
            table.copy_(table.half().float())
    os.makedirs(args.out, exist_ok=True)
    reporter.logits(np.arange(n)).astype(np.float32).tofile(os.path.join(args.out, 'z.bin'))
    tensors = stored_tensors(args, model, widths)
    with open(os.path.join(args.out, 'weights.bin'), 'wb') as f:
        for name, t in tensors:
            f.write(t.detach().numpy().astype(np.float16 if name in HALF else np.float32).tobytes())
    shapes = [{'name': name, 'shape': list(t.shape), 'dtype': 'float16' if name in HALF else 'float32'}
              for name, t in tensors]
    config = {'heads': heads, 'classes': args.classes, 'loss': args.loss if args.classes else 'sigmoid',
              'meanHidden': args.mean_hidden, 'dim': args.dim, 'filters': args.filters, 'widths': widths,
              'scale': args.scale, 'tensors': shapes, 'args': vars(args)}
    json.dump(config, open(os.path.join(args.out, 'weights.json'), 'w'), indent=1)


def main():
    args = parse()
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)
    data = Rows(args)
    glove = word_vectors(args, data.meta)
    widths = [int(w) for w in args.widths.split(',')] if args.filters > 0 else []
    heads = ['served'] + [t for t in args.tasks.split(',') if t]
    # outputs: one logit per head, or with --classes the served head's labels
    outputs = args.classes or len(heads)
    targets_of = targets(args, data, heads)
    model = Model(args, data.meta, widths, outputs, glove)
    reporter = Reporter(args, model, data, widths, outputs)
    train(args, model, data, widths, targets_of, reporter)
    write(args, model, widths, heads, reporter, len(data.rows))


if __name__ == '__main__':
    main()
