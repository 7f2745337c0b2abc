// A word-order classifier of several labels (manifest kind text-cnn, lib/text/cnn/classifier.ts) for an
// operation of training/specs/ops.ts: its rows exported as the serving code reads them
// (training/trainers/text-cnn-rows.ts), trained by training/trainers/text_cnn.py --classes (PyTorch, CPU; Debian:
// apt-get install -y python3-torch python3-numpy, run with /usr/bin/python3 or $PYTHON), then a temperature and a
// bias per label fitted on the calibration half of the validation rows and folded into the output layer, the model
// saved with its manifest, validation figures (the served pass, not the trainer's) and leave-one-domain-out figures
// (the trainer again without the domain). <OP>_TRAINER adds trainer options (experiments), <OP>_WORK moves the
// work folder, <OP>_SKIP_TRAINER=1 reuses the trainings last made there (the trainer is deterministic); as flags
// --<op>-trainer, --<op>-work, --<op>-skip-trainer (training/readers/options.ts).
// The plan is training/trainers/text-cnn-plan.ts, the temperature fit and the validation figures
// training/trainers/text-cnn-validation.ts, the manifest training/trainers/text-cnn-manifest.ts.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { loadWordVectors, type WordVectors } from '../../lib/text/words/vectors.js'
import { cnnForward, cnnScores, cnnTensors, type CnnWeightsJson } from '../../lib/text/cnn/classifier.js'
import { readInParts } from '../../lib/text/cnn/parts.js'
import type { ModelManifest } from '../../schemas/model-manifest.js'
import { exportRows, withTemperatureOutput, type ExportSet } from './text-cnn-rows.js'
import { argmax, confusion } from './scores.js'
import type { OpSpec } from '../specs/ops.js'
import { calibrate } from '../calibration/calibrate.js'
import { latest, versionOf } from '../readers/store.js'
import { VECTORS, type TextCnnPlan, type Trained } from './text-cnn-plan.js'
import { fitServed, scored } from './text-cnn-validation.js'
import { manifestOf } from './text-cnn-manifest.js'
import { cnnOptions, options } from '../readers/options.js'

const log = (s: string) => process.stderr.write(s + '\n')

/** a text's logits to its probabilities as the served model gives them: a softmax, or a sigmoid per label */
const probsOf = (multi: boolean) => (z: ArrayLike<number>) =>
  cnnScores(Float64Array.from(z), multi ? 'sigmoid' : 'softmax')

/**
 * the rows exported as the serving code reads them, one set per training domain, then the validation sets and the
 * probes
 */
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

/** the trainer's logits of a training (its z.bin) */
const zOf = (file: string) => new Float32Array(readFileSync(file).buffer.slice(0))

/** what the steps of a training share: the exported rows, the labels, and the trainer's runs */
interface Training {
  plan: TextCnnPlan
  work: string
  data: ReturnType<OpSpec['data']>
  domains: string[]
  val: string[]
  sets: ExportSet[]
  L: number
  multi: boolean
  labelOf: (label: string) => number
  /** the trainer's options that every run shares, and those <OP>_TRAINER adds */
  base: string[]
  extra: string[]
  /** runs the trainer into `out` on these training sets, with more options, reporting these validation sets */
  run: (out: string, trainSets: string[], more: string[], report: string[]) => void
  /** set i's rows' logits in the trainer's logits zz */
  logitsOf: (zz: Float32Array, i: number) => number[][]
}

/** the plan's rows exported into `work`, and the trainer's runs on them */
async function training (plan: TextCnnPlan, work: string, store: string, vectors: WordVectors): Promise<Training> {
  const { op, spec } = plan
  const key = op.toUpperCase()
  const { data, domains, val, sets, start } = await exported(plan, work, vectors)
  const labels = spec.labels
  const L = labels.length
  const multi = spec.train.multiLabel === true
  const labelOf = (label: string) => (multi && label === 'NONE' ? -1 : labels.indexOf(label))
  const extra = cnnOptions(op).trainer
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
  const logitsOf = (zz: Float32Array, i: number) =>
    sets[i]!.rows.map((_, k) =>
      Array.from(zz.subarray(((start[i] as number) + k) * L, ((start[i] as number) + k + 1) * L))
    )
  return { plan, work, data, domains, val, sets, L, multi, labelOf, base, extra, run, logitsOf }
}

/** weights.json of the served model: the plan's inputs and the trained layers */
function servedConfig (plan: TextCnnPlan, trained: Trained, multi: boolean): CnnWeightsJson {
  return {
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
}

/**
 * leave one domain out: the trainer again without the domain's rows (a third of the epochs), scored on its
 * validation set
 */
function leftOut (t: Training): ModelManifest['metrics'] {
  const { plan, work, data, domains, val, L, multi, labelOf } = t
  const first = domains.length
  const metrics: ModelManifest['metrics'] = []
  const option = (name: string) => {
    const k = plan.trainer.lastIndexOf(name)
    return plan.trainer[k + 1] as string
  }
  const epochs = Math.max(2, Math.round(Number(option('--epochs')) / 3))
  for (const d of data.domains ?? []) {
    const v = data.validation[d.validation]!
    const lodo = join(work, `without-${setName(d.domain)}`)
    t.run(
      lodo,
      domains.filter(x => x !== d.domain).map(setName),
      ['--epochs', String(epochs), '--stop-after', String(epochs)],
      [val[d.validation] as string]
    )
    const gold = v.rows.map(r => labelOf(r.label))
    const p = t.logitsOf(zOf(join(lodo, 'z.bin')), first + d.validation).map(probsOf(multi))
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
  return metrics
}

export async function trainTextCnn (plan: TextCnnPlan): Promise<void> {
  const { op } = plan
  const store = join(import.meta.dirname, '..', '..', 'model-store')
  const vectors = await loadWordVectors(join(store, VECTORS))
  const work = cnnOptions(op).work ?? join(import.meta.dirname, '..', 'data', `${op}-encoder`)
  const t = await training(plan, work, store, vectors)
  const { data, domains, sets, L, multi, labelOf, logitsOf } = t
  const out = join(work, 'all')
  t.run(out, domains.map(setName), [], t.val.slice(0, -1))
  const trained = JSON.parse(readFileSync(join(out, 'weights.json'), 'utf8')) as Trained
  const z = zOf(join(out, 'z.bin'))
  const first = domains.length

  const { T, bias } = fitServed(data.validation, i => logitsOf(z, first + i), labelOf, multi)

  const bin = withTemperatureOutput(readFileSync(join(out, 'weights.bin')), trained.tensors, T, bias)
  const cfg = servedConfig(plan, trained, multi)
  // a retrained model is a new version folder (TRAIN_OUT: elsewhere, for experiments)
  const dir = options.out ?? join(store, op, String(latest(join(store, op)) + 1))
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
  if (options.lodo) metrics.push(...leftOut(t))
  const args = [...t.base, ...t.extra].filter(Boolean).join(' ')
  const version = versionOf(dir)
  const manifest = { ...manifestOf(plan, trained, data, args, { T, bias }, metrics, vectors.dim), version }
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
  log(`wrote ${dir}`)
  if (options.calibrate) await calibrate(op, dir)
}

/**
 * Runs training/trainers/text_cnn.py with these arguments (the script's path first), unless
 * <key>_SKIP_TRAINER=1 asks to reuse the trainings last made (the trainer is deterministic).
 */
export function runTrainer (key: string, args: string[]): void {
  const python = options.python
  const all = [join(import.meta.dirname, 'text_cnn.py'), ...args]
  log(`  ${python} ${all.join(' ')}`)
  if (cnnOptions(key.toLowerCase()).skipTrainer) return
  const r = spawnSync(python, all, { stdio: 'inherit' })
  if (r.status !== 0) {
    throw new Error(
      `${python} training/trainers/text_cnn.py failed (${r.error?.message ?? `exit ${r.status}`}); ` +
        'it needs PyTorch and NumPy: apt-get install -y python3-torch python3-numpy'
    )
  }
}

const REFERENCE_NOTE =
  'probabilities of these texts by the trainer (training/trainers/text_cnn.py) with the stored weights and the ' +
  'temperature (before the calibration by input); the serving code must give the same'

/**
 * Writes a text-cnn model's weights.bin, weights.json and reference.json (the probes' probabilities by the trainer,
 * for the serving test).
 */
export async function writeCnn (
  dir: string,
  cfg: CnnWeightsJson,
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
