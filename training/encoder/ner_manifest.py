"""The manifest of a trained NER head (model-store/ner-multilingual/<version>/manifest.json), written from its
folder's metrics.json and head.onnx, with each training set's source and licence. Used by train_ner_head.py.
"""
import datetime
import hashlib
import json
import os

from ner_corpora import LABELS

LICENCES = {
    'CoNLL-2003': ('ner/conll2003-en', 'research use only (Reuters RCV1 agreement)'),
    'CoNLL-2002': ('ner/conll2002-es-nl', 'research use only, not commercial (CoNLL-2002 README)'),
    'WikiANN': ('ner/wikiann-de-silver', 'CC BY-NC-SA 4.0 (wikineural); WikiANN states none'),
    'WNUT-17': ('ner/wnut17-emerging-entities', 'CC BY 4.0'),
    'Europeana': ('training/data/europeana-fr (github:EuropeanaNewspapers/ner-corpora)', 'CC0'),
    'GermEval': ('ner/germeval2014-de', 'CC BY 4.0'),
}


def source(name):
    return LICENCES[next(k for k in LICENCES if name.startswith(k))]


def write_manifest(out_dir, settings):
    """manifest.json from the folder's metrics.json and head.onnx; settings: the trainer's seed, hidden, epochs,
    the encoder output it reads (layer) and the languages it serves"""
    with open(os.path.join(out_dir, 'metrics.json')) as f:
        found = json.load(f)
    with open(os.path.join(out_dir, 'head.onnx'), 'rb') as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    data = [{'name': n, 'path': source(n)[0], 'licence': source(n)[1], 'split': 'train', 'rows': rows}
            for n, rows in found['train'].items()]
    metrics = [{'dataset': n, 'split': 'validation', 'value': m['f1'],
                'metric': f"entity F1 name/group/place, exact span on the corpus's words (P {m['precision']:.3f}, "
                          f"R {m['recall']:.3f}); npm run eval scores the served path"}
               for n, m in found['validation'].items()]
    manifest = {
        'name': 'ner-multilingual',
        'version': int(os.path.basename(os.path.normpath(out_dir))),
        'kind': 'encoder-ner',
        'description': 'Named entities (name = person, group = organisation, place = location), from a '
                       f"bidirectional LSTM over the shared text encoder's {settings['layer']} and its next "
                       f"{settings['tuned_layers']} layers, tuned with the LSTM (model-store/text-encoder), "
                       'trained on English, Spanish, Dutch, German silver, social-media and French newspaper '
                       'sentences at once. Serves the languages it lists, chosen against the tagger (model-store/ner) '
                       'by npm run eval (docs/models/ner-multilingual.md).',
        'languages': settings['languages'],
        'encoderOutput': settings['layer'],
        'labels': ['name', 'group', 'place'],
        'inputs': [{'name': 'states', 'dtype': 'float32', 'shape': [1, None, 384],
                    'description': f"the encoder's states ({settings['layer']}) of a sentence's tokens "
                                   '(lib/text/heads/ner.ts)'},
                   {'name': 'first', 'dtype': 'int64', 'shape': [None],
                    'description': "the place of each word's first token among them"}],
        'outputs': [{'name': 'scores', 'dtype': 'float32', 'shape': [1, None, len(LABELS)],
                     'description': 'log-probabilities of ' + ' '.join(LABELS) + ' a word; decoded with the '
                                    "tagger's Viterbi, MISC not reported"}],
        'files': ['../../text-encoder/1', 'head.onnx', 'metrics.json'],
        'checksums': {'head.onnx': digest},
        'training': {
            'command': 'npm run train -- ner-multilingual',
            'seed': settings['seed'],
            'data': data,
            'notes': f"The encoder's {settings['tuned_layers']} layers after {settings['layer']} tuned (AdamW "
                     f"{settings['lr_layers']}) with a BiLSTM of {settings['hidden']} units a direction (AdamW "
                     f"{settings['lr_head']}), {settings['epochs']} epochs, warm-up {settings['warmup_steps']} steps "
                     'then linear decay, dropout 0.2 (training/encoder/train_ner_head.py). Four in five GermEval dev '
                     'sources train, the fifth is the German validation part.',
        },
        'metrics': metrics,
        'created': datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ'),
    }
    with open(os.path.join(out_dir, 'manifest.json'), 'w') as f:
        json.dump(manifest, f, indent=2, ensure_ascii=False)
        f.write('\n')
