"""The head's answers read as the service reads them: the tagger's Viterbi over BIOES labels (only well-formed
sequences) and the entity spans of a label sequence. Used by train_ner_head.py to score the validation sets.
"""
import numpy as np

from ner_corpora import LABELS, TYPES

def allowed(prev, nxt):
    """lib/text/ner/labels.ts allowed: after B or I an entity goes on (I) or ends (E) with its type"""
    open_ = prev > 0 and (prev - 1) % 4 < 2
    begins = nxt > 0 and (nxt - 1) % 4 in (0, 3)
    if not open_:
        return nxt == 0 or begins
    return nxt > 0 and not begins and (prev - 1) // 4 == (nxt - 1) // 4

MASK = np.array([[0.0 if allowed(p, y) else -1e9 for y in range(len(LABELS))] for p in range(len(LABELS))])
START = np.array([0.0 if allowed(0, y) else -1e9 for y in range(len(LABELS))])
END = np.array([0.0 if y == 0 or (y - 1) % 4 >= 2 else -1e9 for y in range(len(LABELS))])

def viterbi(scores):
    score = scores[0] + START
    back = []
    for t in range(1, len(scores)):
        m = score[:, None] + MASK
        back.append(m.argmax(0))
        score = m.max(0) + scores[t]
    best = [int((score + END).argmax())]
    for b in reversed(back):
        best.append(int(b[best[-1]]))
    return best[::-1]

def spans(labels):
    out = set()
    start = None
    for t, y in enumerate(labels):
        if y == 0:
            continue
        part, kind = (y - 1) % 4, TYPES[(y - 1) // 4]
        if part in (0, 3):
            start = t
        if part in (2, 3) and kind != 'MISC':
            out.add((start, t, kind))
    return out
