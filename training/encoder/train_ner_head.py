"""Trains the named-entity head over the frozen text encoder and exports it as ONNX (model-store/ner-multilingual).

A training-time tool (serving and tests never run Python). Every sentence of the training sets is read by the
encoder of model-store/text-encoder/1 (onnxruntime, the same int8 graph the service runs) as its words joined by
spaces after 'query: ', each word's ids encoded alone (as lib/text/heads/ner.ts does); the state of each word's
first sub-token in the encoder's 8th layer (LAYER, an inner output the manifest names: lib/text/encoder/graph.ts)
is its input. A bidirectional LSTM reads those states and gives each word a distribution over the
17 BIOES labels of lib/text/ner/labels.ts; the service decodes them with the tagger's Viterbi.

    python3 training/encoder/train_ner_head.py <shared datasets dir> <Europeana FR .bio> <out dir>
    (or npm run train -- ner-multilingual; --manifest <out dir> rewrites the manifest from its metrics.json)

Needs torch, onnx, onnxruntime, tokenizers and numpy. Seeded; on 2 CPU cores it takes some 30 minutes.
"""
import json
import os
import sys
import time

import numpy as np
import onnx
import onnx.numpy_helper
import onnxruntime as ort
import torch
from tokenizers import Tokenizer

from ner_corpora import LABELS, bioes, columns, europeana_fr, germeval
from ner_decode import spans, viterbi
from ner_manifest import write_manifest

STORE = os.path.join(os.path.dirname(__file__), '..', '..', 'model-store', 'text-encoder', '1')
HIDDEN = 192
EPOCHS = 4
SEED = 7
MAX_TOKENS = 256
# the encoder output the head reads: a middle layer tags better than the last (docs/models/ner-multilingual.md)
LAYER = 'layer_8'
# the languages it serves, chosen from npm run eval against the tagger's (docs/models/ner-multilingual.md)
LANGUAGES = ['en', 'es', 'nl', 'fr']
SETTINGS = {'seed': SEED, 'hidden': HIDDEN, 'epochs': EPOCHS, 'layer': LAYER, 'languages': LANGUAGES}


def unsigned_weights(model):
    """int8 weights and zero points as uint8 (each plus 128), as the service loads them (lib/text/encoder/graph.ts
    withUnsignedWeights): the same products, computed without the saturation of u8s8 kernels on CPUs without VNNI"""
    for k, init in enumerate(model.graph.initializer):
        if init.data_type == onnx.TensorProto.INT8:
            values = (onnx.numpy_helper.to_array(init).astype(np.int16) + 128).astype(np.uint8)
            model.graph.initializer[k].CopyFrom(onnx.numpy_helper.from_array(values, init.name))


class Encoder:
    def __init__(self):
        self.tok = Tokenizer.from_file(os.path.join(STORE, 'tokenizer.json'))
        options = ort.SessionOptions()
        options.intra_op_num_threads = 2
        with open(os.path.join(STORE, 'manifest.json')) as f:
            self.output = json.load(f)['encoder']['inner'][LAYER]
        model = onnx.load(os.path.join(STORE, 'model.onnx'))
        unsigned_weights(model)
        model.graph.output.append(onnx.helper.make_tensor_value_info(self.output, onnx.TensorProto.FLOAT, None))
        self.session = ort.InferenceSession(model.SerializeToString(), options)
        self.prefix = self.tok.encode('query:', add_special_tokens=False).ids
        self.pieces = {}

    def ids(self, words):
        """the text's ids, each word encoded alone, and the place of each word's first piece (-1: cut off)"""
        ids = [0] + self.prefix
        first = []
        for w in words:
            if w not in self.pieces:
                self.pieces[w] = self.tok.encode(w, add_special_tokens=False).ids or [3]
            first.append(len(ids) if len(ids) < MAX_TOKENS - 1 else -1)
            ids += self.pieces[w]
        return ids[:MAX_TOKENS - 1] + [2], first

    def states(self, sentences):
        rows = [self.ids([w for w, _, _ in s]) for s in sentences]
        order = sorted(range(len(rows)), key=lambda i: len(rows[i][0]))
        out = [None] * len(rows)
        for b in range(0, len(order), 64):
            idx = order[b:b + 64]
            width = max(len(rows[i][0]) for i in idx)
            ids = np.ones((len(idx), width), dtype=np.int64)
            mask = np.zeros((len(idx), width), dtype=np.int64)
            for r, i in enumerate(idx):
                ids[r, :len(rows[i][0])] = rows[i][0]
                mask[r, :len(rows[i][0])] = 1
            states = self.session.run([self.output], {'input_ids': ids, 'attention_mask': mask})[0]
            for r, i in enumerate(idx):
                first = np.array(rows[i][1])
                kept = first[first >= 0]
                out[i] = states[r, kept].astype(np.float16)
        return [(x, np.array(bioes(s)[:len(x)])) for x, s in zip(out, sentences)]

class Head(torch.nn.Module):
    def __init__(self, mean, scale):
        super().__init__()
        self.register_buffer('mean', mean)
        self.register_buffer('scale', scale)
        self.drop = torch.nn.Dropout(0.2)
        self.lstm = torch.nn.LSTM(384, HIDDEN, batch_first=True, bidirectional=True)
        self.out = torch.nn.Linear(2 * HIDDEN, len(LABELS))

    def forward(self, states):
        x = self.drop((states - self.mean) / self.scale)
        return torch.log_softmax(self.out(self.drop(self.lstm(x)[0])), -1)

def train(rows):
    torch.manual_seed(SEED)
    stacked = torch.tensor(np.concatenate([x for x, _ in rows]).astype(np.float32))
    head = Head(stacked.mean(0), stacked.std(0) + 1e-4)
    opt = torch.optim.AdamW(head.parameters(), lr=2e-3, weight_decay=1e-4)
    for epoch in range(EPOCHS):
        head.train()
        order = torch.randperm(len(rows)).tolist()
        total = 0.0
        for b in range(0, len(order), 32):
            batch = [rows[i] for i in order[b:b + 32]]
            width = max(len(y) for _, y in batch)
            x = torch.zeros(len(batch), width, 384)
            y = torch.full((len(batch), width), -100, dtype=torch.long)
            for r, (xs, ys) in enumerate(batch):
                x[r, :len(ys)] = torch.tensor(xs.astype(np.float32))
                y[r, :len(ys)] = torch.tensor(ys)
            loss = torch.nn.functional.nll_loss(head(x).reshape(-1, len(LABELS)), y.reshape(-1), ignore_index=-100)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
        print(f'epoch {epoch}: loss {total / (len(order) / 32):.4f}', flush=True)
    return head.eval()

def score(head, rows):
    tp = fp = fn = 0
    with torch.no_grad():
        for x, y in rows:
            if len(y) == 0:
                continue
            pred = viterbi(head(torch.tensor(x.astype(np.float32))[None])[0].numpy())
            gold, got = spans(list(y)), spans(pred)
            tp, fp, fn = tp + len(gold & got), fp + len(got - gold), fn + len(gold - got)
    p, r = tp / max(1, tp + fp), tp / max(1, tp + fn)
    return {'f1': round(2 * p * r / max(1e-9, p + r), 4), 'precision': round(p, 4), 'recall': round(r, 4)}

def main(datasets, fr_bio, out_dir):
    d = lambda p: os.path.join(datasets, 'ner', p)
    germeval_dev = d('germeval2014-de/NER-de-dev.tsv')
    silver = columns(d('wikiann-de-silver/train.conllu'), 1, 2, '\t', '#')[:12000]
    train_sets = {
        'CoNLL-2003 English eng.train': columns(d('conll2003-en/eng.train'), 0, 3),
        'CoNLL-2002 Spanish esp.train': columns(d('conll2002-es-nl/esp.train'), 0, 2),
        'CoNLL-2002 Dutch ned.train': columns(d('conll2002-es-nl/ned.train'), 0, 2),
        'WikiANN German silver train.conllu (first 12,000)': silver,
        'WNUT-17 wnut17train.conll': columns(d('wnut17-emerging-entities/wnut17train.conll'), 0, 1, '\t'),
        'Europeana French (BnF), four pages in five': europeana_fr(fr_bio, False),
        'GermEval 2014 NER-de-dev.tsv, four sources in five': germeval(germeval_dev, False),
    }
    dev_sets = {
        'CoNLL-2003 English eng.testa': columns(d('conll2003-en/eng.testa'), 0, 3),
        'CoNLL-2002 Spanish esp.testa': columns(d('conll2002-es-nl/esp.testa'), 0, 2),
        'CoNLL-2002 Dutch ned.testa': columns(d('conll2002-es-nl/ned.testa'), 0, 2),
        'GermEval 2014 NER-de-dev.tsv, every fifth source': germeval(germeval_dev, True),
        'WNUT-17 emerging.dev.conll': columns(d('wnut17-emerging-entities/emerging.dev.conll'), 0, 1, '\t'),
        'Europeana French (BnF), every fifth page': europeana_fr(fr_bio, True),
    }
    encoder = Encoder()
    began = time.time()
    rows = [r for s in train_sets.values() for r in encoder.states(s)]
    print(f'{len(rows)} training sentences read in {time.time() - began:.0f} s', flush=True)
    head = train(rows)
    metrics = {name: score(head, encoder.states(s)) for name, s in dev_sets.items()}
    for name, m in metrics.items():
        print(f'{name}: {m}', flush=True)
    os.makedirs(out_dir, exist_ok=True)
    torch.onnx.export(head, torch.zeros(1, 5, 384), os.path.join(out_dir, 'head.onnx'), input_names=['states'],
                      output_names=['scores'], dynamic_axes={'states': {1: 'words'}, 'scores': {1: 'words'}},
                      opset_version=17, dynamo=False)
    counts = {name: len(s) for name, s in train_sets.items()}
    with open(os.path.join(out_dir, 'metrics.json'), 'w') as f:
        json.dump({'train': counts, 'validation': metrics, 'labels': LABELS}, f, indent=2)
    write_manifest(out_dir, SETTINGS)


if __name__ == '__main__':
    if sys.argv[1] == '--manifest':
        write_manifest(sys.argv[2], SETTINGS)
    else:
        main(*sys.argv[1:4])
