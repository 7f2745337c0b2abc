// npm run train -- sarcasm: model-store/sarcasm/1, a binary sarcasm classifier (Non-Sarcastic,
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
// deterministic: the same options give the same weights).
import { readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { loadWordVectors } from '../../lib/text/words/vectors.js'
import type { SequenceConfig } from '../../lib/text/cnn/tokens.js'
import { cnnForward, cnnTensors, softmax, type CnnConfig } from '../../lib/text/cnn/classifier.js'
import type { FeatureConfig } from '../../lib/text/bag/features.js'
import type { ModelManifest } from '../../schemas/model-manifest.js'
import { exportRows, twoLabelOutput, type ExportSet } from '../trainers/text-cnn-rows.js'
import { confusion } from '../trainers/metrics.js'
import { fitServed, runTrainer, scored, writeCnn } from '../trainers/text-cnn.js'
import { sarcasm } from '../specs/sarcasm.js'
import { calibrate } from '../calibration/calibrate.js'

const env = process.env
const VECTORS = 'word-vectors/1'
/** the n-gram bag's features: those of the fastText-style model before (word unigrams and bigrams) */
const BAG: FeatureConfig = { buckets: 1 << 17, charNgrams: [], wordBigrams: true, maxFeatures: 1500, maxChars: 2000 }
const SEQUENCE: SequenceConfig = { maxChars: 2000, maxTokens: 128, oovBuckets: 8192 }
const SEED = Number(env.SARCASM_SEED ?? 13)
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

/** what was tried for this model (validation figures after the temperature, before the calibration by input; seed 13) */
const NOTES =
  'The fastText-style embedding bag this model replaces (the same rows and domain weights; 2026-11-25) gave, served: irony F1 0.548, headlines accuracy 0.832, iSarcasmEval F1 0.293, forums F1 0.554, false alarms 0.032 on ordinary texts and 0.126 on the plain everyday texts; ECE irony 0.055, headlines 0.086, iSarcasmEval 0.060, forums 0.036. ' +
  'Tried with this model: the domain weights of before, 6 epochs: irony 0.531, headlines 0.855, forums 0.612, everyday false alarms 0.091; irony tweets 2 times their weight, 5 epochs: irony 0.546, headlines 0.856, everyday 0.100; with SMS messages (ham and spam) and Enron spam mail as more negatives: everyday false alarms 0.061 but irony 0.543, headlines 0.849 (dropped); irony 3 times with dropout 0.5: irony 0.560, headlines 0.846 (dropped); irony 3 times and headlines 1.3 times: irony 0.554, headlines 0.857, forums 0.552, everyday 0.109; irony 4 times and headlines 1.3 times (kept): irony 0.573, headlines 0.854, iSarcasmEval 0.312, forums 0.546, ordinary 0.025, everyday 0.104; irony 4 times, headlines 2 times and forums 1.3 times: headlines 0.865 but irony 0.562, everyday 0.117, and after the calibration by input ECE irony 0.059 against 0.033 (dropped). ' +
  'Epochs: in every run the served head, at its own threshold, had its best irony F1 (0.63-0.65) in the first 1-3 epochs, while it called 23-38% of the plain everyday texts sarcastic; the later epochs trade that for fewer false alarms, so the schedule runs to its end (5 epochs; the trainer reports each epoch on the validation sets). ' +
  "The fitted label bias moves the decision towards Non-Sarcastic (the served head, trained class-balanced over many ordinary negatives, over-calls the balanced sarcasm sets), which costs irony F1 some 0.04-0.05 against the head's own threshold. " +
  'Mixing the per-domain heads into the served answer did not help: the headlines head alone gets 0.873 on the headlines but adding it costs irony and forums more than it gains. ' +
  'Calibration: the model is overconfident on the irony tweets and underconfident on the headlines (confidence about 0.75 against accuracy 0.85), which neither one temperature nor the temperature by length and known words separates, so headlines ECE stays near 0.10. ' +
  "Seed 1 (the kept options otherwise, served after the calibration by input): irony 0.555, headlines 0.857, iSarcasmEval 0.259, forums 0.551, ordinary 0.022, everyday 0.087; ECE irony 0.056, headlines 0.108, iSarcasmEval 0.032, forums 0.037: part of seed 13's irony gain and calibration is the seed's. " +
  "The leave-one-domain-out figures are this model's (the trainer again without the domain, 2 epochs): irony tweets left out 0.331 (0.430 with the model before), headlines 0.567 (0.528), forums 0.326 (0.256), ordinary texts 0.240 (0.264). " +
  'Serving (lib/text/cnn/classifier.ts, plain TypeScript; a micro-benchmark on a shared 2-core host, load about 4, best of 6 rounds): the 955 irony validation tweets one by one 79 us per text before, 197 us now; six short texts repeated 34 -> 17 us; in one batch 26 -> 228 us per text (the embedding bag before ran its batch as TF.js ops); RSS added by loading 67 -> 31 MB. weights.bin 6.3 -> 8.2 MB. ' +
  'Sarcastic reviews (2026-11-28, tried and not kept): the 436 passages that crowd workers marked as the irony of Amazon reviews (Filatova 2012; training/DATA.md), hash 4/5, beside as many plain multi-domain reviews, as a domain of their own (weight capped as the others are), the same options and seed; served, after the calibration by input, at 0.50 (this model in brackets): irony F1 0.594 (0.573), headlines 0.846 (0.854), iSarcasmEval 0.335 (0.315), forums 0.605 (0.542), false alarms on ordinary texts 0.039 (0.025) and on the plain everyday texts 0.183 (0.100), everyday sarcastic recall 0.35 (0.15), the held-out fifth of the passages against plain reviews F1 0.422 (0.222). It calls more texts sarcastic rather than telling them better: at the threshold where it calls as many ordinary texts sarcastic as this model does at 0.45 (0.039), irony 0.594 against 0.607 and everyday false alarms 0.183 against 0.139; at as many everyday false alarms (0.117 at 0.55, this model 0.100 at 0.50), irony 0.564 against 0.573 and everyday sarcastic recall 0.25 against 0.15 (2 of 20 texts). ' +
  'The served model at other thresholds on its Sarcastic score (2026-11-28; served scores, after the calibration by input): at 0.45 irony F1 0.607, headlines 0.857, false alarms on ordinary texts 0.039 and on the plain everyday texts 0.139; at 0.40 irony 0.646, headlines 0.839, false alarms 0.058 and 0.222; at 0.35 irony 0.664, false alarms 0.093 and 0.348 (at 0.5, as served: 0.573, 0.854, 0.025, 0.100). No threshold meets both the irony target (0.62) and the everyday false-alarm target (0.15): the two targets ask for a better model, not another threshold. ' +
  'Data choices, measured with the model before: '
const log = (s: string) => process.stderr.write(s + '\n')
const store = join(import.meta.dirname, '..', '..', 'model-store')
const vectors = await loadWordVectors(join(store, VECTORS))
const work = env.SARCASM_WORK ?? join(import.meta.dirname, '..', 'data', 'sarcasm-encoder')
const data = sarcasm.data()
const labels = sarcasm.labels
/** each training set's weights times this, on top of weighDomains's (which stop at 4); SARCASM_BOOST=irony=2,... overrides */
const BOOST: Record<string, number> = {
  irony: 4,
  headlines: 1.3,
  ...Object.fromEntries(
    (env.SARCASM_BOOST ?? '')
      .split(',')
      .filter(Boolean)
      .map(x => x.split('='))
      .map(([k, v]) => [k as string, Number(v)])
  )
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
  ...(env.SARCASM_TRAINER ?? '').split(' ').filter(Boolean)
])
const trained = JSON.parse(readFileSync(join(out, 'weights.json'), 'utf8')) as {
  heads: string[]
  dim: number
  filters: number
  widths: number[]
  scale: number
  tensors: CnnConfig['tensors']
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
const cfg: CnnConfig = {
  bag: BAG,
  sequence: SEQUENCE,
  vectors: VECTORS,
  vectorScale: trained.scale,
  filters: trained.filters,
  widths: trained.widths,
  tensors
}
const dir = env.TRAIN_OUT ?? join(store, 'sarcasm', '1')
/** the trainer's probabilities of a set's rows, as the served model gives them */
const trainers = (i: number) =>
  served(i).map(v => softmax(Float64Array.from([bias[0] as number, v / T + (bias[1] as number)])))
await writeCnn(dir, cfg, bin, PROBES, trainers(sets.length - 1))

const trainerArgs = [...TRAINER, ...(env.SARCASM_TRAINER ?? '').split(' ').filter(Boolean)].join(' ')
const architecture = `A hashed n-gram bag (dim ${trained.dim}, ${BAG.buckets} buckets of word unigrams and bigrams; float16) beside a 1-D convolution over the words (${VECTORS}, frozen, ${vectors.dim} dimensions, times ${trained.scale}; ${SEQUENCE.oovBuckets} learned float16 rows for tokens the table lacks; ${trained.filters} filters of widths ${trained.widths.join(', ')}, ReLU, max over positions), into one logit per head: served, ${trained.heads.slice(1).join(', ')}. Trained by training/trainers/text_cnn.py (PyTorch, seed ${SEED}, ${trainerArgs}): the served head on every set (irony tweets, headlines, iSarcasmEval, forums, ordinary texts), each domain weighted as before; the irony, headlines and forums heads each on their own set (ordinary texts negative for all), shaping the shared encoder only. ${data.train.length} training rows. The served logit divided by a temperature of ${T.toFixed(3)} plus a bias per label, fitted on half of the validation rows and folded into the output layer.`
const forward = cnnForward(cfg, cnnTensors(cfg, bin), vectors)
const metrics = scored(
  data.validation,
  text => softmax(forward(text)),
  i => trainers(first + i),
  labelOf,
  2,
  false
)
// leave one domain out: the trainer again without the domain (its set, its head, a third of the epochs), scored on its validation set
if (env.TRAIN_LODO !== '0') {
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
const manifest: ModelManifest & { calibration: unknown } = {
  name: 'sarcasm',
  version: 1,
  kind: 'text-cnn',
  description: sarcasm.description,
  languages: ['en'],
  labels,
  inputs: [
    {
      name: 'text',
      dtype: 'string',
      shape: [null],
      description:
        'n-gram ids (lib/text/bag/features.ts) and token ids (lib/text/cnn/tokens.ts) of each text, computed in TypeScript'
    }
  ],
  outputs: [
    {
      name: 'probabilities',
      dtype: 'float32',
      shape: [null, 2],
      description: 'probabilities over the labels (softmax)'
    }
  ],
  files: ['weights.json', 'weights.bin', `../../${VECTORS}`],
  training: {
    command: 'npm run train -- sarcasm',
    seed: SEED,
    data: data.sources,
    notes: [architecture, NOTES + (sarcasm.notes ?? '')].join(' ').trim()
  },
  calibration: { method: 'temperature scaling with a bias per label', temperature: Number(T.toFixed(4)), bias },
  metrics,
  created: new Date().toISOString()
}
await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
log(`wrote ${dir}`)
if (env.TRAIN_CALIBRATE !== '0') await calibrate('sarcasm', dir)
