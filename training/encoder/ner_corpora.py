"""The NER corpora as the head's trainer reads them (train_ner_head.py): CoNLL-style columns, Europeana's French
pages, their tags as IOB2 types and then as the 17 BIOES labels of lib/text/ner/labels.ts.
"""
import re

TYPES = ['PER', 'ORG', 'LOC', 'MISC']
LABELS = ['O'] + [f'{p}-{t}' for t in TYPES for p in 'BIES']
TYPE_OF = {'PER': 'PER', 'ORG': 'ORG', 'LOC': 'LOC', 'MISC': 'MISC', 'person': 'PER', 'location': 'LOC',
           'corporation': 'ORG', 'group': 'ORG', 'product': 'MISC', 'creative-work': 'MISC', 'OTH': 'MISC'}


def iob2(words, tags):
    """IOB1 or IOB2 tags of the corpora as IOB2 types: [(word, 'B'|'I'|'O', type)]"""
    out = []
    prev = None
    for w, t in zip(words, tags):
        part, _, kind = t.partition('-') if '-' in t else ('I', '-', t)
        kind = TYPE_OF.get(kind)
        if t == 'O' or kind is None:
            out.append((w, 'O', None))
            prev = None
            continue
        if part != 'B' and prev != kind:
            part = 'B'
        out.append((w, 'B' if part == 'B' else 'I', kind))
        prev = kind
    return out

def bioes(sentence):
    """label indices of LABELS: each entity's last word E, or S when it is alone"""
    out = []
    for k, (_, part, kind) in enumerate(sentence):
        if kind is None:
            out.append(0)
            continue
        nxt = sentence[k + 1] if k + 1 < len(sentence) else (None, 'O', None)
        goes_on = nxt[1] == 'I' and nxt[2] == kind
        p = ('B' if goes_on else 'S') if part == 'B' else ('I' if goes_on else 'E')
        out.append(LABELS.index(f'{p}-{kind}'))
    return out

def columns(path, word_col, tag_col, sep=None, comment=None):
    sentences = []
    words, tags = [], []
    for line in open(path, encoding='utf-8', errors='replace'):
        line = line.rstrip('\n')
        if comment is not None and line.startswith(comment):
            continue
        parts = line.split(sep)
        if not line.strip() or parts[0] == '-DOCSTART-':
            if words:
                sentences.append(iob2(words, tags))
            words, tags = [], []
            continue
        words.append(parts[word_col])
        tags.append(parts[tag_col] if len(parts) > tag_col else 'O')
    if words:
        sentences.append(iob2(words, tags))
    return sentences

def europeana_fr(bio, held_out):
    """Europeana's French newspapers (BnF), cut after full stops; every fifth page (its .md's line ranges) is
    the validation part."""
    pages = [(int(a), int(b)) for a, b in re.findall(r'L(\d+) - L(\d+)', open(bio[:-3] + 'md').read())]
    lines = open(bio, encoding='utf-8').read().split('\n')
    out = []
    for k, (a, b) in enumerate(pages):
        if (k % 5 == 4) != held_out:
            continue
        words, tags = [], []
        for line in lines[a - 1:b]:
            parts = line.split(' ')
            if len(parts) < 2:
                continue
            words.append(parts[0])
            tags.append(parts[-1])
            if parts[0] in ('.', '!', '?') or len(words) >= 60:
                out.append(iob2(words, tags))
                words, tags = [], []
        if words:
            out.append(iob2(words, tags))
    return out

def germeval(path, held_out):
    """GermEval 2014 dev by its sources (a sentence's "#" line, in order of first appearance): every fifth
    source is the validation part, the other four in five train (as training/readers/ner.ts germevalPart)."""
    sentences = columns(path, 1, 2, '\t', '#')
    sources = [line.split('\t')[1].strip() for line in open(path, encoding='utf-8')
               if line.startswith('#\t') or line.startswith('# ')]
    order = {}
    for source in sources:
        order.setdefault(source, len(order))
    return [s for s, source in zip(sentences, sources) if (order[source] % 5 == 4) == held_out]
