// npm run train -- sarcasm: the next version of model-store/sarcasm, a binary sarcasm classifier (Non-Sarcastic,
// Sarcastic) of kind text-cnn (lib/text/cnn/classifier.ts): a hashed n-gram bag beside a 1-D
// convolution over the text's words (the shared word vectors, frozen), trained by
// training/trainers/text_cnn.py (PyTorch, CPU; Debian: apt-get install -y python3-torch python3-numpy,
// run with /usr/bin/python3 or $PYTHON) on the rows of training/specs/sarcasm.ts: every sarcasm set and
// the ordinary texts, each domain weighted as training/trainers/mix.ts weighDomains gives it. Multi-task: the
// served head learns from every set, and the irony tweets, the headlines and the forum posts each
// train a head of their own (ordinary texts negative for all), which shapes the shared encoder but
// not the served answer. The served logit is then divided by a temperature and shifted by a bias per
// label, fitted on the calibration half of the validation rows (as the other English classifiers
// are), and folded into the output layer; npm run train -- calibrate sarcasm adds the calibration by
// input. SARCASM_TRAINER adds trainer options and SARCASM_BOOST set weights (experiments), SARCASM_WORK
// moves the work folder, SARCASM_SKIP_TRAINER=1 reuses the trainings last made there (the trainer is
// deterministic: the same options give the same weights); as flags --sarcasm-trainer, --sarcasm-boost and so on
// (docs/models/training-options.md).
import { readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { loadWordVectors } from '../../lib/text/words/vectors.js'
import type { SequenceConfig } from '../../lib/text/cnn/tokens.js'
import { cnnForward, cnnTensors, softmax, type CnnWeightsJson } from '../../lib/text/cnn/classifier.js'
import type { FeatureConfig } from '../../lib/text/bag/features.js'
import { exportRows, twoLabelOutput, type ExportSet } from '../trainers/text-cnn-rows.js'
import { confusion } from '../trainers/scores.js'
import { runTrainer, writeCnn } from '../trainers/text-cnn.js'
import { fitServed, scored } from '../trainers/text-cnn-validation.js'
import { sarcasm } from '../specs/sarcasm.js'
import { calibrate } from '../calibration/calibrate.js'
import { readNotes } from '../readers/notes.js'
import { sarcasmManifest } from '../trainers/sarcasm-manifest.js'
import { nextVersion, versionOf } from '../readers/store.js'
import { options } from '../readers/options.js'

const VECTORS = 'word-vectors/1'
/** the n-gram bag's features: those of the fastText-style model before (word unigrams and bigrams) */
const BAG: FeatureConfig = { buckets: 1 << 17, charNgrams: [], wordBigrams: true, maxFeatures: 1500, maxChars: 2000 }
const SEQUENCE: SequenceConfig = { maxChars: 2000, maxTokens: 128, oovBuckets: 8192 }
const SEED = options.cnn.sarcasm.seed ?? 13
/** training sets (named after the domains of ops-sarcasm.ts), the served head learns from all */
const DOMAINS: Record<string, string> = {
  'irony tweets': 'irony',
  headlines: 'headlines',
  'author tweets': 'isarcasm',
  forums: 'forums',
  ordinary: 'ordinary',
  tweets: 'tweets'
}
/** the trainer's options (training/trainers/text_cnn.py --help); the committed model uses these */
const TRAINER = [
  '--train-sets',
  'irony,headlines,isarcasm,forums,ordinary,tweets',
  '--negatives',
  'ordinary,tweets',
  '--tasks',
  'irony,headlines,forums',
  '--row-weights',
  '--epochs',
  '5',
  '--stop-after',
  '5',
  '--lr',
  '0.002',
  '--batch',
  '64',
  '--dim',
  '24',
  '--filters',
  '64',
  '--widths',
  '2,3,4',
  '--dropout',
  '0.3',
  '--scale',
  '0.2'
]
/** validation sets as exported (by their index in the spec's validation list) */
const VAL = [
  'irony-val',
  'headlines-val',
  'isarcasm-val',
  'forums-val',
  'ordinary-val',
  'everyday-val',
  'everyday-sarcastic-val'
]
const PROBES = [
  'Oh great, another Monday. Just what I needed.',
  'The meeting is moved to 3pm on Thursday.',
  'I love waiting on hold for two hours, best part of my day',
  'area man wins lottery, immediately loses ticket',
  '😀😀😀',
  'x',
  'zxqv blorft',
  '',
  'word '.repeat(3000)
]

const log = (s: string) => process.stderr.write(s + '\n')
const store = join(import.meta.dirname, '..', '..', 'model-store')
const vectors = await loadWordVectors(join(store, VECTORS))
const work = options.cnn.sarcasm.work ?? join(import.meta.dirname, '..', 'data', 'sarcasm-encoder')
const data = sarcasm.data()
const labels = sarcasm.labels
/** each training set's weights times this, on top of weighDomains's (which stop at 4); SARCASM_BOOST=irony=2,...
 * overrides */
const BOOST: Record<string, number> = {
  irony: 4,
  headlines: 1.3,
  ...options.sarcasmBoost
}
const sets: ExportSet[] = [
  ...Object.entries(DOMAINS).map(([domain, name]) => ({
    name,
    rows: data.train.filter(r => r.domain === domain).map(r => ({ ...r, weight: (r.weight ?? 1) * (BOOST[name] ?? 1) }))
  })),
  ...data.validation.map((v, i) => ({ name: VAL[i] as string, rows: v.rows })),
  { name: 'probe', rows: PROBES.map(text => ({ text, label: 'Non-Sarcastic' })) }
]
if (data.validation.length !== VAL.length) {
  throw new Error('training/recipes/sarcasm.ts: the validation sets of ops-sarcasm.ts changed')
}
await exportRows(work, sets, BAG, SEQUENCE, vectors, 'Sarcastic')
log(`sarcasm: ${sets.map(s => `${s.name} ${s.rows.length}`).join(', ')} rows written to ${work}`)
const start: number[] = []
sets.reduce((at, s) => {
  start.push(at)
  return at + s.rows.length
}, 0)
const out = join(work, 'all')
runTrainer('SARCASM', [
  '--data',
  work,
  '--vectors',
  join(store, VECTORS),
  '--out',
  out,
  '--seed',
  String(SEED),
  ...TRAINER,
  '--report',
  VAL.slice(0, 6).join(','),
  ...options.cnn.sarcasm.trainer
])
const trained = JSON.parse(readFileSync(join(out, 'weights.json'), 'utf8')) as {
  heads: string[]
  dim: number
  filters: number
  widths: number[]
  scale: number
  tensors: CnnWeightsJson['tensors']
  args: Record<string, unknown>
}
const heads = trained.heads.length
const z = new Float32Array(readFileSync(join(out, 'z.bin')).buffer.slice(0))
/** the served head's logits of a set's rows */
const served = (i: number) => sets[i]!.rows.map((_, k) => z[((start[i] as number) + k) * heads] as number)

// the temperature and label biases, on the calibration half of every validation set that reports
// calibration (each weighing alike), as training/trainers/text-cnn.ts fits them for the other classifiers:
// the served head's logit is Sarcastic's, Non-Sarcastic's is 0
const first = Object.keys(DOMAINS).length
const labelOf = (label: string) => labels.indexOf(label)
const { T, bias } = fitServed(data.validation, i => served(first + i).map(z => [0, z]), labelOf, false)

// the served model: two labels, Non-Sarcastic's logit b0 and Sarcastic's the served head's / T + b1
const { bin, tensors } = twoLabelOutput(readFileSync(join(out, 'weights.bin')), trained.tensors, T, [
  bias[0] as number,
  bias[1] as number
])
const cfg: CnnWeightsJson = {
  bag: BAG,
  sequence: SEQUENCE,
  vectors: VECTORS,
  vectorScale: trained.scale,
  filters: trained.filters,
  widths: trained.widths,
  tensors
}
const dir = options.out ?? nextVersion('sarcasm', store)
/** the trainer's probabilities of a set's rows, as the served model gives them */
const trainers = (i: number) =>
  served(i).map(v => softmax(Float64Array.from([bias[0] as number, v / T + (bias[1] as number)])))
await writeCnn(dir, cfg, bin, PROBES, trainers(sets.length - 1))

const trainerArgs = [...TRAINER, ...options.cnn.sarcasm.trainer].join(' ')
const forward = cnnForward(cfg, cnnTensors(cfg, bin), vectors)
const metrics = scored(
  data.validation,
  text => softmax(forward(text)),
  i => trainers(first + i),
  labelOf,
  2,
  false
)
// leave one domain out: the trainer again without the domain (its set, its head, a third of the epochs), scored on
// its validation set
if (options.lodo) {
  const option = (name: string) => {
    const k = TRAINER.lastIndexOf(name)
    return TRAINER[k + 1] as string
  }
  const epochs = Math.max(2, Math.round(Number(option('--epochs')) / 3))
  for (const d of data.domains ?? []) {
    const name = DOMAINS[d.domain] as string
    const v = data.validation[d.validation]!
    const without = (list: string) =>
      list
        .split(',')
        .filter(x => x !== name)
        .join(',')
    const lodo = join(work, `without-${name}`)
    const a = [
      '--data',
      work,
      '--vectors',
      join(store, VECTORS),
      '--out',
      lodo,
      '--seed',
      String(SEED),
      ...TRAINER,
      '--train-sets',
      without(option('--train-sets')),
      '--negatives',
      without(option('--negatives')),
      '--tasks',
      without(option('--tasks')),
      '--epochs',
      String(epochs),
      '--stop-after',
      String(epochs),
      '--report',
      VAL[d.validation] as string
    ]
    log(`  leave out ${d.domain}:`)
    runTrainer('SARCASM', a)
    const h = (JSON.parse(readFileSync(join(lodo, 'weights.json'), 'utf8')) as { heads: string[] }).heads.length
    const zl = new Float32Array(readFileSync(join(lodo, 'z.bin')).buffer.slice(0))
    const from = start[first + d.validation] as number
    const gold = v.rows.map(r => labels.indexOf(r.label))
    const value = v.metric.score(
      confusion(
        gold,
        v.rows.map((_, k) => ((zl[(from + k) * h] as number) >= 0 ? 1 : 0)),
        2
      ),
      [],
      gold
    )
    log(`    ${v.name}: ${v.metric.name} = ${value.toFixed(4)}`)
    metrics.push({
      dataset: v.name,
      split: `${v.split}; trained without the ${d.domain} domain, ${epochs} epochs (leave one domain out)`,
      metric: v.metric.name,
      value: Number(value.toFixed(4))
    })
  }
}
const manifest = sarcasmManifest({
  bag: BAG,
  sequence: SEQUENCE,
  vectors: VECTORS,
  vectorsDim: vectors.dim,
  trained,
  seed: SEED,
  trainerArgs,
  T,
  bias,
  data,
  metrics,
  // the notes' last sentence ('Data choices, measured with the model before:') runs on into the spec's notes
  notes: readNotes('sarcasm') + ' ' + (sarcasm.notes ?? '')
})
manifest.version = versionOf(dir)
await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
log(`wrote ${dir}`)
if (options.calibrate) await calibrate('sarcasm', dir)
