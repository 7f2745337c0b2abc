"""The tokenizer files of the exported encoder: an XLM-R style tokenizer.json rebuilt from the package's pieces
and scores (its normaliser table compiled to a SentencePiece charsmap), and the model's config files. Used by
export_e5.py.
"""
import base64
import json
from pathlib import Path

import sentencepiece as spm
from sentencepiece import sentencepiece_model_pb2

PREFIXES = {'query': 'query: ', 'passage': 'passage: '}


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
