// npm run train -- <op>: reproduces model-store/<op>/1 from ../shared/datasets (fixed seeds).
// ops: sentiment, emotion, sarcasm, intent, new_intent, taxonomy (and the models with scripts of their own)
// A classifier is trained on its mixture of domains, its scores calibrated by a temperature fitted
// on half of its validation rows (the expected calibration error is reported on the other half),
// and, unless TRAIN_LODO=0, retrained once per held-out domain to measure how it does on a domain it
// never saw (leave one domain out). Then, unless TRAIN_CALIBRATE=0, the saved model gets its
// calibration by input (training/calibrate.ts; alone: npm run train -- calibrate <model>).
import { join } from 'node:path'
import type { FeatureConfig } from '../lib/text/features.js'
import { loadWordVectors, type WordVectors } from '../lib/text/word-vectors.js'
import { predictAll, train, type Example, type Weights } from './fasttext.js'
import { argmax, confusion, ece, fitsTemperature } from './metrics.js'
import { fitTemperatureOn } from './temperature.js'
import { OPS, type OpSpec, type Row, type Validation } from './ops.js'
import { saveClassifier } from './save-classifier.js'
import { calibrate, CALIBRATED } from './calibrate.js'

const op = process.argv[2]
// npm run train -- calibrate <model> [version folder]: the calibration by input of a trained model
if (op === 'calibrate') {
  const model = process.argv[3]
  if (model === undefined || !CALIBRATED.includes(model)) {
    process.stderr.write(`usage: npm run train -- calibrate <model>   (models: ${CALIBRATED.join(', ')})\n`)
    process.exit(2)
  }
  await calibrate(model, process.argv[4] ?? join(import.meta.dirname, '..', 'model-store', model, '1'))
  process.exit(0)
}
// the span and pair models, and the word-order classifiers (abuse, sarcasm, taxonomy, sentiment, emotion, intent, new_intent: kind text-cnn), have training scripts of their own: training/<op>.ts
const OWN = ['ner', 'keywords', 'similarity', 'word-vectors', 'sentiment-multilingual', 'emotion-multilingual', 'language_detection', 'abuse', 'target_sentiment', 'sarcasm', 'taxonomy', 'sentiment', 'emotion', 'intent', 'new_intent']
if (op !== undefined && OWN.includes(op)) {
  await import(`./${op}.ts`)
  process.exit(0)
}
const spec: OpSpec | undefined = op === undefined ? undefined : OPS[op]
if (spec === undefined) {
  process.stderr.write(`usage: npm run train -- <op>   (ops: ${[...Object.keys(OPS), ...OWN].join(', ')}; calibrate <model>)\n`)
  process.exit(2)
}

const VECTORS = 'word-vectors/1'
const STORE = join(import.meta.dirname, '..', 'model-store')
const t0 = performance.now()
const data = spec.data()
const index = new Map(spec.labels.map((l, i) => [l, i]))
const multi = spec.train.multiLabel === true
/** a label's index; with independent per-label scores, NONE (no label fits) is -1 */
const labelOf = (label: string): number => {
  if (multi && label === 'NONE') return -1
  const i = index.get(label)
  if (i === undefined) throw new Error(`unknown label ${label}`)
  return i
}
const toExamples = (rows: Row[]): Example[] => rows.map((r) => ({ text: r.text, label: labelOf(r.label), ...(r.weight !== undefined ? { weight: r.weight } : {}) }))
const trainSet = toExamples(data.train)
process.stderr.write(`${op}: ${trainSet.length} training rows; validation: ${data.validation.map((v) => `${v.name} ${v.rows.length}`).join(', ')}\n`)

// TRAIN_* variables override the spec for experiments; the committed models use the spec alone
const env = process.env
const cfg: FeatureConfig = { ...spec.features, ...(env.TRAIN_BUCKETS ? { buckets: Number(env.TRAIN_BUCKETS) } : {}), ...(env.TRAIN_CHARS ? { charNgrams: env.TRAIN_CHARS === 'none' ? [] : env.TRAIN_CHARS.split('-').map(Number) } : {}) }
if (env.TRAIN_EPOCHS) spec.train.epochs = Number(env.TRAIN_EPOCHS)
if (env.TRAIN_LR) spec.train.lr = Number(env.TRAIN_LR)
if (env.TRAIN_DIM) spec.train.dim = Number(env.TRAIN_DIM)
if (env.TRAIN_L2) spec.train.l2 = Number(env.TRAIN_L2)
if (env.TRAIN_BALANCE) spec.train.balance = env.TRAIN_BALANCE === '1'
if (env.TRAIN_HIDDEN) spec.train.hidden = Number(env.TRAIN_HIDDEN)
const useVectors = env.TRAIN_VECTORS !== undefined ? env.TRAIN_VECTORS === '1' : spec.vectors === true
const vectors: WordVectors | undefined = useVectors ? await loadWordVectors(join(STORE, VECTORS)) : undefined
if (useVectors) cfg.vectors = VECTORS
const primary = data.validation[0]!
const goldOf = (rows: Row[]) => rows.map((r) => labelOf(r.label))
const classes = spec.labels.length
type Predict = (texts: string[]) => number[][]
/** a validation set's metric for a model's answers (the top label of each text) */
const scoreOn = (v: Validation, predict: Predict) => {
  const probs = predict(v.rows.map((r) => r.text))
  const gold = goldOf(v.rows)
  return v.metric.score(confusion(gold.map((g) => Math.max(0, g)), probs.map(argmax), classes), probs, gold)
}
const score = (predict: Predict) => ({ name: primary.metric.name, value: scoreOn(primary, predict) })
const features = `${cfg.buckets} hashed buckets of word unigrams${cfg.wordBigrams ? ', bigrams' : ''}${cfg.charNgrams.length ? `, char ${cfg.charNgrams.join('-')}-grams` : ''}${useVectors ? `, and the SIF-weighted mean of the shared word vectors (${VECTORS}, ${vectors!.dim} dimensions, frozen)` : ''}`

const calibrates = fitsTemperature

const raw: Weights = train(trainSet, cfg, { ...spec.train, classes }, (w) => score((texts) => predictAll(w, texts, cfg, vectors)), vectors)
// each validation set counts alike in the fit, whatever its size (one temperature for every domain)
const { weights, temperature, bias, rows: calibrationRows } = fitTemperatureOn(raw, data.validation.filter((v) => v.calibration !== false).map((v) => v.rows.map((r) => ({ text: r.text, label: labelOf(r.label) }))), cfg, multi, vectors)
process.stderr.write(`  temperature ${temperature.toFixed(3)}, label biases ${bias.join(' ')} (fitted on ${calibrationRows} validation rows)\n`)
const predict: Predict = (texts) => predictAll(weights, texts, cfg, vectors)
const architecture = `fastText-style embedding bag (dim ${spec.train.dim}, ${features}${(spec.train.hidden ?? 0) > 0 && useVectors ? `; the word-vector mean through ${spec.train.hidden} ReLU units` : ''}) into ${multi ? 'one sigmoid per label (independent scores)' : 'a softmax'}, ${spec.train.epochs} epochs of SGD from lr ${spec.train.lr}${spec.train.balance ? ', class-balanced loss' : ''}; ${trainSet.length} training rows; logits divided by a temperature of ${temperature.toFixed(3)} plus a bias per label, fitted on half of the validation rows.`

const metrics: Array<{ dataset: string, split: string, metric: string, value: number, baseline?: string }> = []
for (const v of data.validation) {
  metrics.push({ dataset: v.name, split: v.split, metric: v.metric.name, value: Number(scoreOn(v, predict).toFixed(4)), ...(v.metric.baseline ? { baseline: v.metric.baseline } : {}) })
  const report = v.rows.filter((r) => !calibrates(r.text))
  if (v.calibration !== false && report.length >= 50) {
    metrics.push({ dataset: v.name, split: `${v.split}, the half not used to fit the temperature`, metric: 'expected calibration error (top label, 15 bins)', value: Number(ece(predict(report.map((r) => r.text)), goldOf(report)).toFixed(4)), baseline: 'target <= 0.05' })
  }
}
if (env.TRAIN_LODO !== '0') {
  for (const d of data.domains ?? []) {
    const v = data.validation[d.validation]!
    const rows = data.train.filter((r) => r.domain !== d.domain)
    process.stderr.write(`  leave out ${d.domain}: ${rows.length} rows\n`)
    // a third of the epochs: each left-out domain is a training run of its own
    const epochs = Math.max(2, Math.round(spec.train.epochs / 3))
    const w = train(toExamples(rows), cfg, { ...spec.train, epochs, classes, quiet: true }, () => ({ name: '', value: NaN }), vectors)
    metrics.push({ dataset: v.name, split: `${v.split}; trained without the ${d.domain} domain, ${epochs} epochs (leave one domain out)`, metric: v.metric.name, value: Number(scoreOn(v, (texts) => predictAll(w, texts, cfg, vectors)).toFixed(4)) })
  }
}
for (const m of metrics) process.stderr.write(`  ${m.dataset} ${m.split}: ${m.metric} = ${m.value}\n`)

const dir = env.TRAIN_OUT ?? join(STORE, op!, '1') // TRAIN_OUT: experiments elsewhere
await saveClassifier(dir, weights, cfg, {
  op: op!,
  description: spec.description,
  labels: spec.labels,
  ...(spec.tags !== undefined ? { tags: spec.tags } : {}),
  seed: spec.train.seed,
  sources: data.sources,
  notes: [architecture, spec.notes ?? ''].join(' ').trim(),
  calibration: { method: 'temperature scaling with a bias per label', temperature: Number(temperature.toFixed(4)), bias },
  metrics
})
// then the calibration by input (training/calibrate.ts), fitted on the saved model as served
if (env.TRAIN_CALIBRATE !== '0') await calibrate(op!, dir)
process.stderr.write(`wrote model-store/${op}/1 in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`)
