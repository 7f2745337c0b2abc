// A word-order classifier of several labels (manifest kind text-cnn, lib/text/cnn/classifier.ts) for an
// operation of training/specs/ops.ts: its rows exported as the serving code reads them (training/trainers/text-cnn-rows.ts),
// trained by training/trainers/text_cnn.py --classes (PyTorch, CPU; Debian: apt-get install -y python3-torch
// python3-numpy, run with /usr/bin/python3 or $PYTHON), then a temperature and a bias per label fitted on
// the calibration half of the validation rows and folded into the output layer, the model saved with its
// manifest, validation figures (the served pass, not the trainer's) and leave-one-domain-out figures (the
// trainer again without the domain). <OP>_TRAINER adds trainer options (experiments), <OP>_WORK moves the
// work folder, <OP>_SKIP_TRAINER=1 reuses the trainings last made there (the trainer is deterministic).
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { loadWordVectors, type WordVectors } from '../../lib/text/words/vectors.js'
import type { SequenceConfig } from '../../lib/text/cnn/tokens.js'
import { cnnForward, cnnScores, cnnTensors, type CnnConfig } from '../../lib/text/cnn/classifier.js'
import { readInParts, type PartsConfig } from '../../lib/text/cnn/parts.js'
import type { FeatureConfig } from '../../lib/text/bag/features.js'
import type { ModelManifest } from '../../schemas/model-manifest.js'
import { exportRows, withTemperatureOutput, type ExportSet } from './text-cnn-rows.js'
import { argmax, confusion, ece, fitCalibration, fitsTemperature } from './metrics.js'
import type { OpSpec, Validation } from '../specs/ops.js'
import { calibrate } from '../calibration/calibrate.js'
import { latest } from '../heads/embed.js'

export interface TextCnnPlan {
  op: string
  spec: OpSpec
  seed: number
  bag: FeatureConfig
  sequence: SequenceConfig
  /** the word-vector input's features (lib/text/bag/sentence-input.ts), read through --mean-hidden units; none when absent */
  mean?: FeatureConfig
  /** the served model reads a long text in parts (lib/text/cnn/parts.ts), its logits the mean of theirs; absent: whole */
  parts?: PartsConfig
  /** the trainer's options (training/trainers/text_cnn.py --help), without --train-sets, --classes and --loss */
  trainer: string[]
  /** texts whose probabilities the trainer's weights give, saved to reference.json for the serving test */
  probes: string[]
  /** what was tried, for the manifest */
  notes: string
}

/**
 * The plan most operations use: the n-gram bag of the operation's features (and the word-vector input
 * of the same features through spec.train.hidden ReLU units, as its embedding bag had), a convolution of
 * 64 filters of widths 2-4 over the first 128 tokens, Adam (lr 0.002, the bag's 0.02), the bag's width
 * and class balance from spec.train, `epochs` epochs; seed from spec.train unless <OP>_SEED says otherwise.
 */
export function standardPlan (op: string, spec: OpSpec, epochs: number, probes: string[], notes: string): TextCnnPlan {
  const { vectors: _, ...bag } = spec.features
  return {
    op,
    spec,
    seed: Number(process.env[`${op.toUpperCase()}_SEED`] ?? spec.train.seed),
    bag,
    sequence: { maxChars: bag.maxChars, maxTokens: 128, oovBuckets: 8192 },
    mean: bag,
    trainer: [
      '--epochs',
      String(epochs),
      '--lr',
      '0.002',
      '--bag-lr',
      '0.02',
      '--batch',
      '64',
      '--dim',
      String(spec.train.dim),
      '--filters',
      '64',
      '--widths',
      '2,3,4',
      '--mean-hidden',
      String(spec.train.hidden ?? 64),
      '--dropout',
      '0.3',
      '--scale',
      '0.2',
      ...(spec.train.balance === true ? ['--balance'] : [])
    ],
    probes,
    notes
  }
}

const VECTORS = 'word-vectors/1'
const log = (s: string) => process.stderr.write(s + '\n')

interface Trained {
  dim: number
  filters: number
  widths: number[]
  scale: number
  meanHidden: number
  tensors: CnnConfig['tensors']
}
/** a text's logits to its probabilities as the served model gives them: a softmax, or a sigmoid per label */
const probsOf = (multi: boolean) => (z: ArrayLike<number>) =>
  cnnScores(Float64Array.from(z), multi ? 'sigmoid' : 'softmax')

/** the rows exported as the serving code reads them, one set per training domain, then the validation sets and the probes */
async function exported (plan: TextCnnPlan, work: string, vectors: WordVectors) {
  const data = plan.spec.data()
  const domains = [...new Set(data.train.map(r => r.domain ?? 'all'))]
  const val = data.validation.map((_, i) => `val${i}`)
  const sets: ExportSet[] = [
    ...domains.map(d => ({ name: setName(d), rows: data.train.filter(r => (r.domain ?? 'all') === d) })),
    ...data.validation.map((v, i) => ({ name: val[i] as string, rows: v.rows })),
    { name: 'probe', rows: plan.probes.map(text => ({ text, label: plan.spec.labels[0] as string })) }
  ]
  await exportRows(work, sets, plan.bag, plan.sequence, vectors, plan.spec.labels, plan.mean)
  log(`${plan.op}: ${sets.map(s => `${s.name} ${s.rows.length}`).join(', ')} rows written to ${work}`)
  const start: number[] = []
  sets.reduce((at, s) => {
    start.push(at)
    return at + s.rows.length
  }, 0)
  return { data, domains, val, sets, start }
}
const setName = (d: string) => d.replace(/[^a-z0-9]+/gi, '_')

export async function trainTextCnn (plan: TextCnnPlan): Promise<void> {
  const { op, spec } = plan
  const env = process.env
  const key = op.toUpperCase()
  const store = join(import.meta.dirname, '..', '..', 'model-store')
  const vectors = await loadWordVectors(join(store, VECTORS))
  const work = env[`${key}_WORK`] ?? join(import.meta.dirname, '..', 'data', `${op}-encoder`)
  const { data, domains, val, sets, start } = await exported(plan, work, vectors)
  const labels = spec.labels
  const L = labels.length
  const multi = spec.train.multiLabel === true
  const labelOf = (label: string) => (multi && label === 'NONE' ? -1 : labels.indexOf(label))
  const extra = (env[`${key}_TRAINER`] ?? '').split(' ').filter(Boolean)
  const base = [
    '--classes',
    String(L),
    '--loss',
    multi ? 'sigmoid' : 'softmax',
    '--negatives',
    '',
    '--row-weights',
    ...plan.trainer
  ]
  const run = (out: string, trainSets: string[], more: string[], report: string[]) =>
    runTrainer(key, [
      '--data',
      work,
      '--vectors',
      join(store, VECTORS),
      '--out',
      out,
      '--seed',
      String(plan.seed),
      '--train-sets',
      trainSets.join(','),
      ...base,
      ...more,
      '--report',
      report.join(','),
      ...extra
    ])
  const out = join(work, 'all')
  run(out, domains.map(setName), [], val.slice(0, -1))
  const trained = JSON.parse(readFileSync(join(out, 'weights.json'), 'utf8')) as Trained
  const zOf = (file: string) => new Float32Array(readFileSync(file).buffer.slice(0))
  const logitsOf = (zz: Float32Array, i: number) =>
    sets[i]!.rows.map((_, k) =>
      Array.from(zz.subarray(((start[i] as number) + k) * L, ((start[i] as number) + k + 1) * L))
    )
  const z = zOf(join(out, 'z.bin'))
  const first = domains.length

  const { T, bias } = fitServed(data.validation, i => logitsOf(z, first + i), labelOf, multi)

  const bin = withTemperatureOutput(readFileSync(join(out, 'weights.bin')), trained.tensors, T, bias)
  const cfg: CnnConfig = {
    bag: plan.bag,
    sequence: plan.sequence,
    vectors: VECTORS,
    vectorScale: trained.scale,
    filters: trained.filters,
    widths: trained.widths,
    ...(plan.mean !== undefined
      ? { mean: { features: { ...plan.mean, vectors: VECTORS }, hidden: trained.meanHidden } }
      : {}),
    ...(multi ? { output: 'sigmoid' as const } : {}),
    ...(plan.parts !== undefined ? { parts: plan.parts } : {}),
    tensors: trained.tensors
  }
  // a retrained model is a new version folder (TRAIN_OUT: elsewhere, for experiments)
  const dir = env.TRAIN_OUT ?? join(store, op, String(latest(join(store, op)) + 1))
  const served = (zz: number[]) => probsOf(multi)(zz.map((v, c) => v / T + (bias[c] as number)))
  await writeCnn(dir, cfg, bin, plan.probes, logitsOf(z, sets.length - 1).map(served))

  // the validation figures as the model serves them: a long text read in parts when the plan asks for it
  const forward = readInParts(cnnForward(cfg, cnnTensors(cfg, bin), vectors), cfg.parts)
  const metrics = scored(
    data.validation,
    text => probsOf(multi)(forward(text)),
    i => logitsOf(z, first + i).map(served),
    labelOf,
    L,
    multi
  )
  // leave one domain out: the trainer again without the domain's rows (a third of the epochs), scored on its validation set
  const option = (name: string) => {
    const k = plan.trainer.lastIndexOf(name)
    return plan.trainer[k + 1] as string
  }
  const epochs = Math.max(2, Math.round(Number(option('--epochs')) / 3))
  if (env.TRAIN_LODO !== '0') {
    for (const d of data.domains ?? []) {
      const v = data.validation[d.validation]!
      const lodo = join(work, `without-${setName(d.domain)}`)
      run(
        lodo,
        domains.filter(x => x !== d.domain).map(setName),
        ['--epochs', String(epochs), '--stop-after', String(epochs)],
        [val[d.validation] as string]
      )
      const gold = v.rows.map(r => labelOf(r.label))
      const p = logitsOf(zOf(join(lodo, 'z.bin')), first + d.validation).map(probsOf(multi))
      const value = v.metric.score(
        confusion(
          gold.map(g => Math.max(0, g)),
          p.map(argmax),
          L
        ),
        p,
        gold
      )
      log(`    without ${d.domain}: ${v.name}: ${v.metric.name} = ${value.toFixed(4)}`)
      metrics.push({
        dataset: v.name,
        split: `${v.split}; trained without the ${d.domain} domain, ${epochs} epochs (leave one domain out)`,
        metric: v.metric.name,
        value: Number(value.toFixed(4))
      })
    }
  }
  const args = [...base, ...extra].filter(Boolean).join(' ')
  const version = /^\d+$/.test(basename(dir)) ? Number(basename(dir)) : 1
  const manifest = { ...manifestOf(plan, trained, data, args, { T, bias }, metrics, vectors.dim), version }
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
  log(`wrote ${dir}`)
  if (env.TRAIN_CALIBRATE !== '0') await calibrate(op, dir)
}

/**
 * Runs training/trainers/text_cnn.py with these arguments (the script's path first), unless
 * <key>_SKIP_TRAINER=1 asks to reuse the trainings last made (the trainer is deterministic).
 */
export function runTrainer (key: string, args: string[]): void {
  const python = process.env.PYTHON ?? '/usr/bin/python3'
  const all = [join(import.meta.dirname, 'text_cnn.py'), ...args]
  log(`  ${python} ${all.join(' ')}`)
  if (process.env[`${key}_SKIP_TRAINER`] === '1') return
  const r = spawnSync(python, all, { stdio: 'inherit' })
  if (r.status !== 0) {
    throw new Error(
      `${python} training/trainers/text_cnn.py failed (${r.error?.message ?? `exit ${r.status}`}); it needs PyTorch and NumPy: apt-get install -y python3-torch python3-numpy`
    )
  }
}

/**
 * The temperature and a bias per label, fitted on the calibration half (training/trainers/metrics.ts
 * fitsTemperature) of every validation set that reports calibration, each set weighing alike;
 * logitsOf(i) gives the trainer's logits of validation set i's rows.
 */
export function fitServed (
  validation: Validation[],
  logitsOf: (i: number) => number[][],
  labelOf: (label: string) => number,
  multi: boolean
): { T: number; bias: number[] } {
  const calSets = validation
    .map((v, i) => ({ v, i }))
    .filter(({ v }) => v.calibration !== false)
    .map(({ v, i }) => {
      const z = logitsOf(i)
      return v.rows
        .map((r, k) => ({ g: labelOf(r.label), z: z[k] as number[], text: r.text }))
        .filter(x => fitsTemperature(x.text) && (multi || x.g >= 0))
    })
  const cal = calSets.flat()
  const weightOf = calSets.flatMap(rows => rows.map(() => cal.length / (calSets.length * rows.length)))
  const fitted = fitCalibration(
    cal.map(x => x.z),
    cal.map(x => x.g),
    multi,
    weightOf
  )
  const bias = fitted.bias.map(b => Number(b.toFixed(4)))
  log(
    `  temperature ${fitted.temperature.toFixed(3)}, label biases ${bias.join(' ')} (fitted on ${cal.length} validation rows)`
  )
  return { T: fitted.temperature, bias }
}

const REFERENCE_NOTE =
  'probabilities of these texts by the trainer (training/trainers/text_cnn.py) with the stored weights and the temperature (before the calibration by input); the serving code must give the same'

/** Writes a text-cnn model's weights.bin, weights.json and reference.json (the probes' probabilities by the trainer, for the serving test). */
export async function writeCnn (
  dir: string,
  cfg: CnnConfig,
  bin: Buffer,
  probes: string[],
  probabilities: number[][],
  note = REFERENCE_NOTE
): Promise<void> {
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'weights.bin'), bin)
  await writeFile(join(dir, 'weights.json'), JSON.stringify(cfg, null, 1) + '\n')
  await writeFile(join(dir, 'reference.json'), JSON.stringify({ note, texts: probes, probabilities }) + '\n')
}

/** each validation set's metric for the served pass (and, beside it in the log, for the trainer's own logits), and the calibration error of the half not used to fit the temperature */
export function scored (
  validation: Validation[],
  probs: (text: string) => number[],
  trainers: (i: number) => number[][],
  labelOf: (label: string) => number,
  L: number,
  multi: boolean
): ModelManifest['metrics'] {
  const metrics: ModelManifest['metrics'] = []
  for (const [i, v] of validation.entries()) {
    const p = v.rows.map(r => probs(r.text))
    const gold = v.rows.map(r => labelOf(r.label))
    const top = gold.map(g => Math.max(0, g))
    const value = v.metric.score(confusion(top, p.map(argmax), L), p, gold)
    const mine = trainers(i)
    const torch = v.metric.score(confusion(top, mine.map(argmax), L), mine, gold)
    log(`  ${v.name} ${v.split}: ${v.metric.name} = ${value.toFixed(4)} (the trainer's: ${torch.toFixed(4)})`)
    metrics.push({
      dataset: v.name,
      split: v.split,
      metric: v.metric.name,
      value: Number(value.toFixed(4)),
      ...(v.metric.baseline ? { baseline: v.metric.baseline } : {})
    })
    const half = v.rows.map((_, k) => k).filter(k => !fitsTemperature(v.rows[k]!.text) && (multi || gold[k]! >= 0))
    if (v.calibration !== false && half.length >= 50) {
      const e = ece(
        half.map(k => p[k]!),
        half.map(k => gold[k]!)
      )
      log(`    ECE ${e.toFixed(4)} (${half.length} rows)`)
      metrics.push({
        dataset: v.name,
        split: `${v.split}, the half not used to fit the temperature`,
        metric: 'expected calibration error (top label, 15 bins)',
        value: Number(e.toFixed(4)),
        baseline: 'target <= 0.05'
      })
    }
  }
  return metrics
}

function manifestOf (
  plan: TextCnnPlan,
  trained: Trained,
  data: ReturnType<OpSpec['data']>,
  trainerArgs: string,
  fit: { T: number; bias: number[] },
  metrics: ModelManifest['metrics'],
  vdim: number
): ModelManifest & { calibration: unknown } {
  const { op, spec } = plan
  const multi = spec.train.multiLabel === true
  const L = spec.labels.length
  const architecture = `A hashed n-gram bag (dim ${trained.dim}, ${plan.bag.buckets} buckets of word unigrams${plan.bag.wordBigrams ? ' and bigrams' : ''}${plan.bag.charNgrams.length ? `, char ${plan.bag.charNgrams.join('-')}-grams` : ''}; float16)${plan.mean !== undefined ? `, the SIF-weighted mean of the text's word vectors${plan.mean.negatedVectors === true ? ' (and that of its negated words)' : ''} (${VECTORS}) through ${trained.meanHidden} ReLU units` : ''} and a 1-D convolution over the words (${VECTORS}, frozen, ${vdim} dimensions, times ${trained.scale}; ${plan.sequence.oovBuckets} learned float16 rows for tokens the table lacks; ${trained.filters} filters of widths ${trained.widths.join(', ')}, ReLU, max over positions; the first ${plan.sequence.maxTokens} tokens), side by side into ${multi ? 'one sigmoid per label (independent scores)' : 'a softmax over the labels'}. Trained by training/trainers/text_cnn.py (PyTorch, seed ${plan.seed}, ${trainerArgs}) on ${data.train.length} rows, each domain weighted as training/trainers/mix.ts weighDomains gives it. The logits divided by a temperature of ${fit.T.toFixed(3)} plus a bias per label, fitted on half of the validation rows and folded into the output layer.${plan.parts !== undefined ? ` Served, a text of more than ${plan.parts.words} words is read in parts (lib/text/cnn/parts.ts: its first ${plan.parts.maxChars} characters as its sentences grouped into parts of at most ${plan.parts.words} words), its logits the mean of its parts' logits, each part weighing its words; the temperature and label biases were fitted on whole texts, the calibration by input on the served answers; the leave-one-domain-out figures read texts whole (the trainer's outputs).` : ''}`
  return {
    name: op,
    version: 1,
    kind: 'text-cnn',
    description: spec.description,
    languages: ['en'],
    labels: spec.labels,
    ...(spec.tags !== undefined ? { tags: spec.tags } : {}),
    inputs: [
      {
        name: 'text',
        dtype: 'string',
        shape: [null],
        description:
          'n-gram ids (lib/text/bag/features.ts), token ids (lib/text/cnn/tokens.ts)' +
          (plan.mean !== undefined ? ' and the word-vector input (lib/text/bag/sentence-input.ts)' : '') +
          ' of each text, computed in TypeScript'
      }
    ],
    outputs: [
      multi
        ? {
            name: 'scores',
            dtype: 'float32',
            shape: [null, L],
            description: 'an independent probability per label (sigmoid)'
          }
        : {
            name: 'probabilities',
            dtype: 'float32',
            shape: [null, L],
            description: 'probabilities over the labels (softmax)'
          }
    ],
    files: ['weights.json', 'weights.bin', `../../${VECTORS}`],
    training: {
      command: `npm run train -- ${op}`,
      seed: plan.seed,
      data: data.sources,
      notes: [architecture, plan.notes, spec.notes ?? ''].join(' ').trim()
    },
    calibration: {
      method: 'temperature scaling with a bias per label',
      temperature: Number(fit.T.toFixed(4)),
      bias: fit.bias
    },
    metrics,
    created: new Date().toISOString()
  }
}
