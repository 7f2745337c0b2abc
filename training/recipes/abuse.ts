// npm run train -- abuse: the next version of model-store/abuse, a binary abuse classifier (Non Abusive, Abusive) of
// kind text-cnn (lib/text/cnn/classifier.ts): a hashed n-gram bag beside a 1-D convolution over the
// text's words (the shared word vectors, frozen), trained by training/trainers/text_cnn.py (PyTorch, CPU;
// Debian: apt-get install -y python3-torch python3-numpy, run with /usr/bin/python3 or $PYTHON).
// Multi-task: one encoder, the served head trained on OLID's 'offensive' and ordinary texts, and a head
// of its own for HatEval's 'hateful' (a different definition: its non-hateful tweets are often
// offensive), which trains the shared encoder but not the served answer. This script writes the rows
// with the serving code's own features (training/trainers/text-cnn-rows.ts), runs the trainer twice (without a
// held-out fifth of the training rows, to fit the decision threshold on it; then on all rows), and
// writes the model folder with the threshold folded into the output bias; then, unless
// TRAIN_CALIBRATE=0, the calibration by input (training/calibration/calibrate.ts, no bias per label, so the
// threshold still decides). ABUSE_TRAINER adds trainer options, ABUSE_THRESHOLD fixes the threshold,
// ABUSE_WORK moves the work folder, ABUSE_SKIP_TRAINER=1 reuses the trainings last made there (as flags:
// --abuse-trainer, --abuse-threshold, --abuse-work, --abuse-skip-trainer; docs/models/training-options.md).
import { readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { loadWordVectors } from '../../lib/text/words/vectors.js'
import type { SequenceConfig } from '../../lib/text/cnn/tokens.js'
import { cnnForward, cnnTensors, softmax, type CnnWeightsJson } from '../../lib/text/cnn/classifier.js'
import type { FeatureConfig } from '../../lib/text/bag/features.js'
import type { ModelManifest } from '../../schemas/model-manifest.js'
import { TWO_LABELS_IO } from '../trainers/text-cnn-manifest.js'
import { isHeldOut, withoutOverlap, type Labelled } from '../readers/data.js'
import { exportRows, twoLabelOutput, type ExportSet } from '../trainers/text-cnn-rows.js'
import { runTrainer, writeCnn } from '../trainers/text-cnn.js'
import { abuseSpec, calibrate } from '../calibration/calibrate.js'
import { argmax, confusion, macroF1 } from '../trainers/scores.js'
import { ABUSE, hate, hateVal, olid, olidVal, ordinary, ordinaryVal } from '../specs/abuse.js'
import { nextVersion, versionOf } from '../readers/store.js'
import { args, options } from '../readers/options.js'

/** the shared word-vector table, a folder below model-store (weights.json names it for serving) */
const VECTORS = 'word-vectors/1'
/** the n-gram bag's features, as the text classifiers hash them (lib/text/bag/features.ts) */
const BAG: FeatureConfig = {
  buckets: 1 << 16,
  charNgrams: [3, 5],
  wordBigrams: true,
  maxFeatures: 1500,
  maxChars: 2000
}
/** the word sequence the convolution reads (lib/text/cnn/tokens.ts) */
const SEQUENCE: SequenceConfig = { maxChars: 2000, maxTokens: 128, oovBuckets: 8192 }
const SEED = options.cnn.abuse.seed ?? 23
/** the trainer's options (training/trainers/text_cnn.py --help); the committed model uses these */
const TRAINER = [
  '--tasks',
  'hate',
  '--epochs',
  '6',
  '--lr',
  '0.002',
  '--batch',
  '64',
  '--dim',
  '32',
  '--filters',
  '64',
  '--widths',
  '2,3,4',
  '--dropout',
  '0.3',
  '--scale',
  '0.2'
]

/** texts whose served probabilities the trainer's forward pass records (reference.json), for the serving code's test */
const PROBES = [
  'this update is garbage',
  '@user you are a fucking idiot and a disgusting piece of shit',
  'have a nice day',
  'Thank you so much for the lovely flowers, see you on Sunday!',
  "you're an idiot, don't you get it??",
  '😀😀😀',
  'x',
  'zxqv blorft',
  '',
  'word '.repeat(3000)
]

/** the macro F1 of rows (label 1 Abusive) when Abusive is answered at p >= t */
const f1At = (y: number[], p: number[], t: number) =>
  macroF1(
    confusion(
      y,
      p.map(x => (x >= t ? 1 : 0)),
      2
    ),
    [0, 1]
  )
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z))

if (
  import.meta.filename === process.argv[1] ||
  (process.argv[1]?.endsWith('train.ts') === true && args[0] === 'abuse')
) {
  const log = (s: string) => process.stderr.write(s + '\n')
  const store = join(import.meta.dirname, '..', '..', 'model-store')
  const vectors = await loadWordVectors(join(store, VECTORS))
  // training/data is not in git: the exported rows and the trainer's outputs
  const work = options.cnn.abuse.work ?? join(import.meta.dirname, '..', 'data', 'abuse-encoder')
  const train = (xs: Labelled[]) => withoutOverlap(xs, olidVal, hateVal)
  const sets: ExportSet[] = [
    { name: 'olid', rows: train(olid) },
    { name: 'ordinary', rows: train(ordinary) },
    { name: 'hate', rows: train(hate) },
    { name: 'olid-val', rows: olidVal },
    { name: 'hate-val', rows: hateVal },
    { name: 'ordinary-val', rows: ordinaryVal },
    { name: 'probe', rows: PROBES.map(text => ({ text, label: 'Non Abusive' })) }
  ]
  await exportRows(work, sets, BAG, SEQUENCE, vectors)
  log(`abuse: ${sets.map(s => `${s.name} ${s.rows.length}`).join(', ')} rows written to ${work}`)
  const start: number[] = []
  sets.reduce((at, s) => {
    start.push(at)
    return at + s.rows.length
  }, 0)
  const rowsOf = (name: string) => {
    const i = sets.findIndex(s => s.name === name)
    return { from: start[i] as number, rows: sets[i]!.rows }
  }
  const trainer = (out: string, extra: string[]) => {
    // ABUSE_TRAINER: more options for experiments (a later option overrides an earlier one); ABUSE_SKIP_TRAINER=1
    // reuses the trainings last made
    runTrainer('ABUSE', [
      '--data',
      work,
      '--vectors',
      join(store, VECTORS),
      '--out',
      out,
      '--seed',
      String(SEED),
      ...TRAINER,
      ...options.cnn.abuse.trainer,
      ...extra
    ])
    const heads = (JSON.parse(readFileSync(join(out, 'weights.json'), 'utf8')) as { heads: string[] }).heads.length
    const z = new Float32Array(readFileSync(join(out, 'z.bin')).buffer.slice(0))
    /** the served head's logits of a set's rows */
    return (name: string) => {
      const { from, rows } = rowsOf(name)
      return rows.map((_, i) => z[(from + i) * heads] as number)
    }
  }

  // the threshold on p(Abusive): a model trained without a fixed fifth of the training rows (hash of
  // the text) answers that fifth; of 0.30-0.80 by 0.05, the one with the best mean macro F1 of its
  // OLID and HatEval tweets, calling at most 5.8% of its ordinary texts Abusive. No validation row is used.
  let threshold = options.abuseThreshold ?? NaN
  if (Number.isNaN(threshold)) {
    const z = trainer(join(work, 'without-fifth'), ['--without-fold'])
    const held = (name: string) => {
      const p = z(name).map(sigmoid)
      const rows = sets.find(s => s.name === name)!.rows
      const keep = rows.map(r => isHeldOut(r.text))
      return {
        y: rows.filter((_, i) => keep[i]).map(r => (r.label === 'Abusive' ? 1 : 0)),
        p: p.filter((_, i) => keep[i])
      }
    }
    const [o, h, n] = [held('olid'), held('hate'), held('ordinary')]
    let best = -1
    for (let k = 6; k <= 16; k++) {
      const t = k / 20
      const alarms = n.p.filter(x => x >= t).length / n.p.length
      const fo = f1At(o.y, o.p, t)
      const fh = f1At(h.y, h.p, t)
      log(
        `  threshold ${t.toFixed(2)}: held-out fifth OLID ${fo.toFixed(4)}, HatEval ${fh.toFixed(4)}, ` +
          `ordinary called Abusive ${alarms.toFixed(4)}`
      )
      if (alarms <= 0.058 && (fo + fh) / 2 > best) {
        best = (fo + fh) / 2
        threshold = t
      }
    }
  }
  log(`  threshold ${threshold}`)
  const out = join(work, 'all')
  const z = trainer(out, [])
  const shift = Math.log(threshold / (1 - threshold))

  // the served model: two labels, Non Abusive's logit 0 and Abusive's the served head's minus the
  // threshold's logit, so the softmax's larger probability is the thresholded answer
  const trained = JSON.parse(readFileSync(join(out, 'weights.json'), 'utf8')) as {
    heads: string[]
    filters: number
    widths: number[]
    scale: number
    tensors: CnnWeightsJson['tensors']
  }
  const { bin, tensors } = twoLabelOutput(readFileSync(join(out, 'weights.bin')), trained.tensors, 1, [0, -shift])
  const cfg: CnnWeightsJson = {
    bag: BAG,
    sequence: SEQUENCE,
    vectors: VECTORS,
    vectorScale: trained.scale,
    filters: trained.filters,
    widths: trained.widths,
    tensors
  }
  const dir = options.out ?? nextVersion(ABUSE.op, store)
  // the trainer's own probabilities of the probe texts, with the stored weights and the threshold
  const probes = z('probe').map(v => {
    const p = sigmoid(v - shift)
    return [1 - p, p]
  })
  await writeCnn(
    dir,
    cfg,
    bin,
    PROBES,
    probes,
    'probabilities of these texts by the trainer (training/trainers/text_cnn.py) with the stored weights; ' +
      'the serving code must give the same'
  )
  const architecture =
    `A hashed n-gram bag (dim 32, ${BAG.buckets} buckets of word unigrams, bigrams, ` +
    `char ${BAG.charNgrams.join('-')}-grams; float16) beside a 1-D convolution over the words ` +
    `(${VECTORS}, frozen, ${vectors.dim} dimensions; ${SEQUENCE.oovBuckets} learned float16 rows for tokens ` +
    `the table lacks; ${trained.filters} filters of widths ${trained.widths.join(', ')}, ReLU, max over positions), ` +
    `into one logit per head: served, ${trained.heads.slice(1).join(', ')}. ` +
    `Trained by training/trainers/text_cnn.py (PyTorch, seed ${SEED}, ${TRAINER.join(' ')}); ` +
    "heads: the served one on OLID and ordinary texts, HatEval's hateful on its own set " +
    '(ordinary texts negative for both). ' +
    `Abusive when p >= ${threshold} (fitted on a held-out fifth of the training rows, folded into the output bias).`
  const manifest: ModelManifest = {
    name: ABUSE.op,
    version: versionOf(dir),
    kind: 'text-cnn',
    description: ABUSE.description,
    languages: ['en'],
    labels: ABUSE.labels,
    ...TWO_LABELS_IO,
    files: ['weights.json', 'weights.bin', `../../${VECTORS}`],
    training: { command: 'npm run train -- abuse', seed: SEED, data: ABUSE.sources, notes: architecture },
    metrics: [],
    created: new Date().toISOString()
  }
  // the validation figures through the serving code's forward pass (npm run eval -- abuse measures the same)
  const forward = cnnForward(cfg, cnnTensors(cfg, bin), vectors)
  for (const v of ABUSE.validation) {
    const probs = v.rows.map(r => softmax(forward(r.text)))
    const value = v.metric.score(
      confusion(
        v.rows.map(r => ABUSE.labels.indexOf(r.label)),
        probs.map(argmax),
        2
      )
    )
    const torch = v.metric.score(
      confusion(
        v.rows.map(r => ABUSE.labels.indexOf(r.label)),
        z(sets.find(s => s.rows === v.rows)!.name).map(x => (x >= shift ? 1 : 0)),
        2
      )
    )
    log(`  ${v.name} ${v.split}: ${v.metric.name} = ${value.toFixed(4)} (the trainer's: ${torch.toFixed(4)})`)
    manifest.metrics.push({
      dataset: v.name,
      split: v.split,
      metric: v.metric.name,
      value: Number(value.toFixed(4)),
      baseline: v.metric.baseline
    })
  }
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
  log(`wrote ${dir}`)
  // then the calibration by input (no bias per label: the threshold above stays the decision)
  if (options.calibrate) await calibrate('abuse', dir, log, abuseSpec(ABUSE.validation))
}
