"""Checks of the exported encoder against the package's C engine (token ids from e5.c compiled here, embeddings
from the engine the wheel ships), a few sanity pairs and timings. Used by export_e5.py.
"""
import ctypes
import os
import subprocess
import time

import numpy as np
import onnxruntime as ort

from e5_tokenizer import PREFIXES

CHECK = [
    'I love this phone, the battery lasts for two days.',
    'The quarterly report is attached; please review it before Friday.',
    "Don't forget: the meeting starts at 9:30 a.m. sharp!",
    'Das Essen war kalt und der Kellner unfreundlich.',
    'Straßenbahnhaltestelle Öffnungszeiten: Mo–Fr 8–18 Uhr.',
    'El hotel estaba limpio, pero el desayuno fue decepcionante.',
    '¿Dónde está la estación de tren más cercana?',
    "Le service client m'a répondu en moins d'une heure.",
    "C'était très cher pour une qualité médiocre.",
    'De levering was snel en het product werkt prima.',
    'Ik heb mijn geld nog steeds niet teruggekregen.',
    'Il film era noioso e troppo lungo.',
    'Perché la consegna è così lenta?',
    'O produto chegou quebrado e ninguém respondeu.',
    'Quanta proteína devo comer por dia?',
    'الطعام كان لذيذاً والخدمة ممتازة.',
    'لم يصل الطلب بعد أسبوعين من الانتظار.',
    'यह फ़ोन बहुत अच्छा है '
    'और बैटरी लंबी चलती है।',
    'मुझे यह सेवा बिल्कुल पसंद नहीं आई।',
    '  Tabs\tand   doubled  spaces, ＦＵＬＬＷＩＤＴＨ ①, emoji 😀 and café ',
]

SANITY = {
    'sentiment': ('I love this phone', 'I hate this phone'),
    'paraphrase': ('I love this phone', 'This phone is fantastic, I really like it'),
    'cross-lingual': ('The food was cold', 'Das Essen war kalt'),
    'unrelated (en)': ('The food was cold', 'The train leaves from platform four'),
    'unrelated (de)': ('Das Essen war kalt', 'The train leaves from platform four'),
}

class CEngine:
    """The package's engine through ctypes: `lib` is a shared library built from e5.c (or the shipped one)."""

    def __init__(self, lib_path, model_path, with_ids=False):
        lib = ctypes.CDLL(str(lib_path))
        lib.e5_load.restype = ctypes.c_void_p
        lib.e5_load.argtypes = [ctypes.c_char_p]
        lib.e5_embed_batch.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p), ctypes.c_int,
                                       ctypes.c_int, ctypes.POINTER(ctypes.c_float)]
        lib.e5_token_count.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        if with_ids:
            lib.e5x_content_ids.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_int),
                                            ctypes.c_int]
        self.lib, self.m = lib, lib.e5_load(str(model_path).encode())
        if not self.m:
            raise RuntimeError(f'{lib_path} could not load {model_path}')

    def ids(self, text):
        """<s> + the engine's own Viterbi pieces for `text` (no prefix added) + </s>."""
        raw = text.encode()
        buf = (ctypes.c_int * (len(raw) + 4))()
        n = self.lib.e5x_content_ids(self.m, raw, buf, len(raw) + 4)
        return [0] + list(buf[:n]) + [2]

    def embed(self, texts, kind):
        out = np.empty((len(texts), 384), np.float32)
        arr = (ctypes.c_char_p * len(texts))(*[t.encode() for t in texts])
        self.lib.e5_embed_batch(self.m, arr, len(texts), int(kind == 'query'),
                                out.ctypes.data_as(ctypes.POINTER(ctypes.c_float)))
        return out

def build_c(pkg, scratch):
    """Compiles e5.c with a two-line shim exposing its (static) tokenizer, the way the package builds it."""
    shim = scratch / 'e5_ids.c'
    shim.write_text(f'#include "{pkg / "e5.c"}"\n'
                    'int e5x_content_ids(e5_model *m, const char *t, int *out, int cap) '
                    '{ return tok_content(&m->tok, t, out, cap); }\n')
    lib = scratch / 'libe5_ids.so'
    subprocess.run(['gcc', '-O3', '-march=native', '-fopenmp', '-shared', '-fPIC', f'-I{pkg}', str(shim), '-o',
                    str(lib), '-lm'], check=True)
    return lib

def encode(tok, texts, prefix=''):
    encs = tok.encode_batch([prefix + t for t in texts])
    width = max(len(e.ids) for e in encs)
    ids = np.full((len(encs), width), 1, np.int64)
    mask = np.zeros((len(encs), width), np.int64)
    for i, e in enumerate(encs):
        ids[i, :len(e.ids)], mask[i, :len(e.ids)] = e.ids, 1
    return ids, mask

def pooled(states, mask):
    m = mask[..., None].astype(np.float32)
    v = (states * m).sum(1) / np.maximum(m.sum(1), 1e-9)
    return v / np.linalg.norm(v, axis=1, keepdims=True)

def session(path, threads=2):
    opts = ort.SessionOptions()
    opts.intra_op_num_threads, opts.inter_op_num_threads = threads, 1
    return ort.InferenceSession(str(path), opts, providers=['CPUExecutionProvider'])

def embed_onnx(sess, tok, texts, prefix):
    ids, mask = encode(tok, texts, prefix)
    return pooled(sess.run(None, {'input_ids': ids, 'attention_mask': mask})[0], mask)

def fmt(values):
    return ' '.join(f'{v:.4f}' for v in values)

def check_tokens(tok, engine, shipped):
    """Our tokenizer's ids against e5.c's, with and without the prefixes; counts against the shipped engine."""
    total = bad = 0
    for text in CHECK:
        for prefix in ['', PREFIXES['query'], PREFIXES['passage']]:
            ours, theirs = tok.encode(prefix + text).ids, engine.ids(prefix + text)
            total, bad = total + 1, bad + (ours != theirs)
            if ours != theirs:
                print(f'  token mismatch {prefix + text!r}\n    ours   {ours}\n    e5.c   {theirs}')
        count = shipped.lib.e5_token_count(shipped.m, text.encode(), 1)
        ours = len(tok.encode(PREFIXES['query'] + text).ids)
        total, bad = total + 1, bad + (count != ours)
        if count != ours:
            print(f'  token count {ours} but the shipped engine counts {count}: {text!r}')
    print(f'tokenizer against e5.c: {total - bad}/{total} identical '
          f'({len(CHECK)} sentences x no prefix, query:, passage:, and the shipped engine\'s token counts)')
    return bad

def check_vectors(tok, sessions, engines, ref_torch):
    """Pooled ONNX vectors against the C engine's embeddings, per sentence."""
    results = {}
    for kind, prefix in PREFIXES.items():
        c_vecs = {name: e.embed(CHECK, kind) for name, e in engines.items()}
        built = (c_vecs['e5.c built here'] * c_vecs['shipped engine']).sum(1)
        print(f'[{kind}] e5.c built here vs shipped engine: min {built.min():.5f}')
        for name, sess in sessions.items():
            cos = (embed_onnx(sess, tok, CHECK, prefix) * c_vecs['shipped engine']).sum(1)
            results[f'{kind}/{name}'] = cos
            print(f'[{kind}] {name} vs shipped C engine: mean {cos.mean():.4f} min {cos.min():.4f}\n    {fmt(cos)}')
    cos = (ref_torch * engines['shipped engine'].embed(CHECK, 'passage')).sum(1)
    print(f'[passage] torch fp32 (dequantised) vs shipped C engine: mean {cos.mean():.4f} min {cos.min():.4f}')
    return results

def check_sanity(tok, sess, engine):
    rows = []
    for label, (a, b) in SANITY.items():
        row = [label]
        for prefix in ['', PREFIXES['query'], PREFIXES['passage']]:
            v = embed_onnx(sess, tok, [a, b], prefix)
            row.append(float(v[0] @ v[1]))
        for kind in ['query', 'passage']:
            v = engine.embed([a, b], kind)
            row.append(float(v[0] @ v[1]))
        rows.append(row)
    print('sanity (int8 ONNX: no prefix | query: | passage: ;  shipped C engine: query | passage)')
    for label, *vals in rows:
        pair = ' / '.join(SANITY[label])
        print(f'  {label:15s} {fmt(vals[:3])} ; {fmt(vals[3:])}   {pair}')

def timings(tok, sessions, engines):
    texts = (CHECK * 2)[:32]
    ids, mask = encode(tok, texts, PREFIXES['passage'])
    print(f'timing: batch 32 x {ids.shape[1]} tokens, 2 threads, median of 10 after 3 warm-ups')
    for name, sess in sessions.items():
        for _ in range(3):
            sess.run(None, {'input_ids': ids, 'attention_mask': mask})
        runs = []
        for _ in range(10):
            t = time.perf_counter()
            sess.run(None, {'input_ids': ids, 'attention_mask': mask})
            runs.append(time.perf_counter() - t)
        print(f'  {name}: {1000 * np.median(runs):.1f} ms')
    for name, engine in engines.items():
        runs = []
        for _ in range(5):
            t = time.perf_counter()
            engine.embed(texts, 'passage')
            runs.append(time.perf_counter() - t)
        print(f'  {name} (OMP_NUM_THREADS={os.environ["OMP_NUM_THREADS"]}): {1000 * np.median(runs):.1f} ms')
