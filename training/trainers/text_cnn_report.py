# What the word-order trainer (text_cnn.py) prints after each epoch: with --classes each --report set's accuracy
# (and how often a row no label fits scores every label under 0); with --report the share each set calls
# positive, its F1 and accuracy; otherwise abuse's own sets (OLID and HatEval macro-F1, ordinary texts called).
import numpy as np
import torch


def macro_f1(y, p):
    f = []
    for c in (0, 1):
        tp = ((p == c) & (y == c)).sum()
        fp = ((p == c) & (y != c)).sum()
        fn = ((p != c) & (y == c)).sum()
        f.append(0 if tp == 0 else 2 * tp / (2 * tp + fp + fn))
    return (f[0] + f[1]) / 2


class Reporter:
    def __init__(self, args, model, data, widths, outputs):
        self.args, self.model, self.data, self.widths, self.outputs = args, model, data, widths, outputs

    def logits(self, idx, bs=512):
        model = self.model
        model.eval()
        out = []
        with torch.no_grad():
            for a in range(0, len(idx), bs):
                out.append(model(*self.data.batch(idx[a:a + bs], self.widths)).numpy())
        model.train()
        return np.concatenate(out) if out else np.zeros((0, self.outputs), dtype=np.float32)

    def rows_of(self, s):
        return np.nonzero(self.data.set_of == self.data.sid[s])[0]

    def report_sets(self, tag):
        msg = []
        for s in self.args.report.split(','):
            idx = self.rows_of(s)
            p = (self.logits(idx)[:, 0] >= 0).astype(int)
            y = self.data.label[idx].astype(int)
            tp = ((p == 1) & (y == 1)).sum()
            f1 = 0 if tp == 0 else 2 * tp / (p.sum() + y.sum())
            msg.append(f'{s} called {p.mean():.4f} F1 {f1:.4f} acc {(p == y).mean():.4f}')
        print(f'  {tag}: ' + ', '.join(msg), flush=True)

    def report_classes(self, tag):
        msg = []
        for s in self.args.report.split(','):
            idx = self.rows_of(s)
            z = self.logits(idx)
            y = self.data.rows[idx, 1]
            top = z.argmax(1)
            has = y >= 0
            m = f'{s} acc {(top[has] == y[has]).mean():.4f}' if has.any() else s
            if (~has).any():
                m += f' none-low {(z[~has].max(1) < 0).mean():.4f}'
            msg.append(m)
        print(f'  {tag}: ' + ', '.join(msg), flush=True)

    def report(self, tag):
        if self.args.classes:
            return self.report_classes(tag)
        if self.args.report:
            return self.report_sets(tag)
        msg = []
        for s in ['olid-val', 'hate-val', 'ordinary-val']:
            idx = self.rows_of(s)
            p = 1 / (1 + np.exp(-self.logits(idx)[:, 0]))
            y = self.data.label[idx]
            called = f'{s} {np.mean(p >= 0.5):.4f}'
            msg.append(called if s == 'ordinary-val' else f'{s} {macro_f1(y, (p >= 0.5).astype(int)):.4f}')
        print(f'  {tag}: ' + ', '.join(msg), flush=True)
