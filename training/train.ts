// npm run train -- <op>: reproduces model-store/<op>/1 from ../shared/datasets (fixed seeds).
// ops: sentiment, emotion, sarcasm, intent, new_intent, taxonomy
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { getTf, type TF } from '../lib/tf.js'
import type { FeatureConfig } from '../lib/text/features.js'
import { predictAll, saveModel, train, type Example, type TrainOptions, type Weights } from './fasttext.js'
import { argmax, confusion } from './metrics.js'
import { OPS, type OpSpec, type Validation } from './ops.js'
import { predictMixture, saveMixture, trainMixture } from './mixture.js'

const op = process.argv[2]
// the span and pair models have training scripts of their own: training/<op>.ts
const OWN = ['ner', 'keywords', 'similarity', 'abuse', 'target_sentiment']
if (op !== undefined && OWN.includes(op)) {
  await import(`./${op}.ts`)
  process.exit(0)
}
const spec: OpSpec | undefined = op === undefined ? undefined : OPS[op]
if (spec === undefined) {
  process.stderr.write(`usage: npm run train -- <op>   (ops: ${[...Object.keys(OPS), ...OWN].join(', ')})\n`)
  process.exit(2)
}

const t0 = performance.now()
const data = spec.data()
const index = new Map(spec.labels.map((l, i) => [l, i]))
const toExamples = (rows: Array<{ text: string, label: string }>): Example[] => rows.map((r) => {
  const label = index.get(r.label)
  if (label === undefined) throw new Error(`unknown label ${r.label}`)
  return { text: r.text, label }
})
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
const primary = data.validation[0]!
const goldOf = (rows: Array<{ label: string }>) => rows.map((r) => index.get(r.label) as number)
const classes = spec.labels.length
type Predict = (texts: string[]) => number[][]
/** a validation set's metric for a model's answers (the top label of each text) */
const scoreOn = (v: Validation, predict: Predict) => v.metric.score(confusion(goldOf(v.rows), predict(v.rows.map((r) => r.text)).map(argmax), classes))
const score = (predict: Predict) => ({ name: primary.metric.name, value: scoreOn(primary, predict) })
const features = `${cfg.buckets} hashed buckets of word unigrams${cfg.wordBigrams ? ', bigrams' : ''}${cfg.charNgrams.length ? `, char ${cfg.charNgrams.join('-')}-grams` : ''}`
let predict: Predict
let save: (tf: TF, path: string) => Promise<void>
let architecture: string
if ((spec.mixture === undefined) !== (data.mixture === undefined)) throw new Error(`${op}: a mixture needs both its training options and its data`)
if (spec.mixture !== undefined && data.mixture !== undefined) {
  const mx = data.mixture
  const ma = spec.mixture
  // progress figures: each expert alone on its domain's validation set; the gate, the share of both
  // validation sets' texts it sends to their own domain's expert
  const va = data.validation[mx.a.validation]!
  const vb = data.validation[mx.b.validation]!
  const expertScore = (v: Validation) => (w: Weights) => ({ name: `${v.metric.name} (${v.name}, this expert alone)`, value: scoreOn(v, (texts) => predictAll(w, texts, cfg)) })
  const gateScore = (w: Weights) => {
    const pa = predictAll(w, va.rows.map((r) => r.text), cfg).filter((p) => (p[1] as number) > 0.5).length
    const pb = predictAll(w, vb.rows.map((r) => r.text), cfg).filter((p) => (p[1] as number) <= 0.5).length
    return { name: 'texts sent to their own domain\'s expert', value: (pa + pb) / (va.rows.length + vb.rows.length) }
  }
  const m = trainMixture(cfg,
    { name: mx.a.name, examples: toExamples(mx.a.rows), opts: { ...ma.a, classes }, validate: expertScore(va) },
    { name: mx.b.name, examples: toExamples(mx.b.rows), opts: { ...ma.b, classes }, validate: expertScore(vb) },
    { name: 'gate', examples: mx.gate.map((r) => ({ text: r.text, label: r.label === 'a' ? 1 : 0 })), opts: { ...ma.gate, classes: 2 }, validate: gateScore },
    (m) => score((texts) => predictMixture(m, texts, cfg)))
  predict = (texts) => predictMixture(m, texts, cfg)
  save = (tf, path) => saveMixture(tf, m, path)
  const fmt = (o: Omit<TrainOptions, 'classes'>) => `dim ${o.dim}, ${o.epochs} epochs of SGD from lr ${o.lr}${o.balance ? ', class-balanced loss' : ''}, seed ${o.seed}`
  architecture = `Gated mixture of two fastText-style embedding bags over ${features}: expert ${mx.a.name} (${mx.a.rows.length} rows; ${fmt(ma.a)}), expert ${mx.b.name} (${mx.b.rows.length} rows; ${fmt(ma.b)}), and a gate that tells their domains apart (${mx.gate.length} rows; ${fmt(ma.gate)}); probabilities are g * P_${mx.a.name} + (1 - g) * P_${mx.b.name}, one embedding table holding all three side by side.`
} else {
  const weights: Weights = train(trainSet, cfg, { ...spec.train, classes }, (w) => score((texts) => predictAll(w, texts, cfg)))
  predict = (texts) => predictAll(weights, texts, cfg)
  save = (tf, path) => saveModel(tf, weights, path)
  architecture = `fastText-style embedding bag (dim ${spec.train.dim}, ${features}), ${spec.train.epochs} epochs of SGD from lr ${spec.train.lr}${spec.train.balance ? ', class-balanced loss' : ''}; ${trainSet.length} training rows.`
}

const metrics = data.validation.map((v) => ({ dataset: v.name, split: v.split, metric: v.metric.name, value: Number(scoreOn(v, predict).toFixed(4)), baseline: v.metric.baseline }))
for (const m of metrics) process.stderr.write(`  ${m.dataset} ${m.split}: ${m.metric} = ${m.value}\n`)

const dir = env.TRAIN_OUT ?? join(import.meta.dirname, '..', 'model-store', op!, '1') // TRAIN_OUT: experiments elsewhere
await mkdir(dir, { recursive: true })
const { tf } = await getTf()
await save(tf, join(dir, 'model.json'))
await writeFile(join(dir, 'features.json'), JSON.stringify(cfg, null, 2) + '\n')
const manifest = {
  name: op,
  version: 1,
  kind: 'text-classifier',
  description: spec.description,
  languages: ['en'],
  labels: spec.labels,
  inputs: [
    { name: 'ids', dtype: 'int32', shape: [null, null], description: 'hashed feature ids of each text (lib/text/features.ts with features.json); 0 pads' },
    { name: 'weights', dtype: 'float32', shape: [null, null], description: '1/n for each of the n features of a text, 0 on padding' }
  ],
  outputs: [{ name: 'probabilities', dtype: 'float32', shape: [null, spec.labels.length] }],
  files: ['model.json', 'weights.bin', 'features.json'],
  training: {
    command: `npm run train -- ${op}`,
    seed: spec.train.seed,
    data: data.sources,
    notes: [architecture, spec.notes ?? ''].join(' ').trim()
  },
  metrics,
  created: new Date().toISOString()
}
await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
process.stderr.write(`wrote model-store/${op}/1 in ${((performance.now() - t0) / 1000).toFixed(0)} s\n`)
