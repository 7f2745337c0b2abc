// npm run train -- <model>: writes the next version folder of model-store/<model> from ../shared/datasets (fixed
// seeds) by the model's own script, training/recipes/<model>.ts. The English classifiers of training/specs/ops.ts
// (sentiment, emotion, sarcasm, intent, new_intent, taxonomy) are word-order models (kind text-cnn) trained by
// training/trainers/text-cnn.ts: a temperature fitted on half of the validation rows, leave-one-domain-out runs
// unless --no-lodo, then, unless --no-calibrate, the calibration by input (training/calibration/calibrate.ts;
// alone: npm run train -- calibrate <model>). The multilingual models get a temperature per language instead
// (training/calibration/language.ts, also by calibrate <model>). similarity, sentiment-multilingual and
// emotion-multilingual read the text encoder (model-store/text-encoder): their trainers are
// training/heads/similarity.ts and training/heads/train.ts, and each writes a new version folder. The flags
// (npm run train -- sentiment --epochs=8 --no-lodo) and the environment variables they replace are
// training/readers/options.ts, listed in docs/models/training-options.md.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { calibrate, CALIBRATED } from './calibration/calibrate.js'
import { calibrateLanguages, LANGUAGE_CALIBRATED } from './calibration/language.js'
import { latest, STORE } from './readers/store.js'
import { args, options, unknownFlags } from './readers/options.js'

if (unknownFlags.length > 0) {
  process.stderr.write(`unknown option ${unknownFlags.join(' ')} (the options: docs/models/training-options.md)\n`)
  process.exit(2)
}
const op = args[0]
// npm run train -- calibrate <model> [version folder]: the calibration by input (or by language) of a
// trained model (its highest version by default)
if (op === 'calibrate') {
  const model = args[1]
  const byLanguage = Object.keys(LANGUAGE_CALIBRATED)
  if (model === undefined || ![...CALIBRATED, ...byLanguage].includes(model)) {
    process.stderr.write(
      `usage: npm run train -- calibrate <model>   (models: ${[...CALIBRATED, ...byLanguage].join(', ')})\n`
    )
    process.exit(2)
  }
  // the model's highest version folder, as the service loads it
  const folder = join(STORE, model)
  const dir = args[2] ?? join(folder, String(latest(folder)))
  await (byLanguage.includes(model) ? calibrateLanguages(model, dir) : calibrate(model, dir))
  process.exit(0)
}
// npm run train -- label <model> <texts file> [out file]: a classifier's scores for unlabelled texts
if (op === 'label') {
  await (await import('./heads/label.js')).main(args.slice(1))
  process.exit(0)
}
// every model has a training script of its own: the span and pair models, the multilingual ones, and the
// word-order classifiers (kind text-cnn)
const MODELS = [
  'sentiment',
  'emotion',
  'sarcasm',
  'intent',
  'new_intent',
  'taxonomy',
  'abuse',
  'target_sentiment',
  'ner',
  'keywords',
  'similarity',
  'word-vectors',
  'sentiment-multilingual',
  'emotion-multilingual',
  'language_detection',
  'ner-multilingual',
  'sentiment-blend',
  'intent-head',
  'intent-blend',
  'sarcasm-head',
  'sarcasm-blend',
  'new_intent-head',
  'new_intent-blend',
  'emotion-head',
  'emotion-blend'
]
if (op === undefined || !MODELS.includes(op)) {
  const other = 'calibrate <model>; label <model> <texts file>'
  process.stderr.write(`usage: npm run train -- <model>   (models: ${MODELS.join(', ')}; ${other})\n`)
  process.stderr.write('options: --name=value flags (docs/models/training-options.md)\n')
  process.exit(2)
}
// the models on the text encoder: a head's trainer (training/heads/)
// the heads named after another op's spec (training/heads/train.ts SPEC_OF)
const ON_SPEC_OF = ['sentiment-multilingual', 'emotion-multilingual', 'intent-head', 'sarcasm-head', 'new_intent-head',
  'emotion-head']
const { TUNED } = await import('./heads/tuned.js')
if (op === 'similarity') await (await import('./heads/similarity.js')).main()
else if (TUNED.includes(op)) process.stderr.write(`wrote ${await (await import('./heads/tuned.js')).trainTuned(op)}\n`)
else if (ON_SPEC_OF.includes(op)) await (await import('./heads/train.js')).trainNamed(op)
else if (op === 'ner-multilingual') nerHead()
else if (op.endsWith('-blend')) await (await import('./heads/blend.js')).trainBlend(op)
else await import(`./recipes/${op}.ts`)
process.exit(0)

/** the NER head over the encoder: a PyTorch trainer (python3 with torch, onnx, onnxruntime, tokenizers) that
 * writes the next version folder, manifest included */
function nerHead (): void {
  const folder = join(STORE, 'ner-multilingual')
  const out = join(folder, String(latest(folder) + 1))
  const script = join(import.meta.dirname, 'encoder', 'train_ner_head.py')
  const fr = join(import.meta.dirname, 'data', 'europeana-fr', 'enp_FR.bnf.bio')
  const args = [script, join(import.meta.dirname, '..', '..', 'shared', 'datasets'), fr, out, options.e5Package]
  const run = spawnSync('python3', args, { stdio: 'inherit' })
  if (run.status !== 0) process.exit(run.status ?? 1)
}
