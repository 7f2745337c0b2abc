// npm run train -- <op> (for the ops of training/specs/ops.ts that read the encoder): trains a head over
// the text encoder's sentence vectors on the op's training rows, fits its temperature on half of
// each validation set (training/trainers/scores.ts fitsTemperature), scores every validation set, and
// writes model-store/<op>/<next version>/ (or HEAD_OUT). The encoder is model-store/text-encoder's
// highest version unless HEAD_ENCODER names another folder.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { Head, type HeadSpec } from '../../lib/text/heads/head.js'
import { OPS, type OpSpec, type Validation } from '../specs/ops.js'
import { argmax, confusion, ece, fitCalibration, fitsTemperature } from '../trainers/scores.js'
import { fitHead, type FitOptions } from './fit.js'
import { trainingEncoder } from './embed.js'
import { latest, STORE } from '../readers/store.js'
import { languageData, languageWeights, type LanguageData } from './languages.js'
import { args, options } from '../readers/options.js'

const log = (s: string): void => {
  process.stderr.write(s + '\n')
}

/** Class weights that balance the labels' weighted mass (at most 10x), as the earlier trainers did. */
function balance (y: number[], w: number[], classes: number): number[] {
  const mass = new Array<number>(classes + 1).fill(0)
  y.forEach((c, i) => {
    mass[c < 0 ? classes : c]! += w[i] as number
  })
  const total = mass.reduce((a, b) => a + b, 0)
  return y.map((c, i) => {
    const wi = w[i] as number
    return c < 0 ? wi : wi * Math.min(10, total / (classes * Math.max(1e-9, mass[c] as number)))
  })
}

/** A head's training rows: the op's English rows and the other languages' (languageData), their label
 * indexes (-1: none) and weights (balanced when the op's spec says so). */
export function headRows (op: string, spec: OpSpec, multiLabel: boolean) {
  const data = spec.data()
  const other = languageData(op)
  const index = new Map(spec.labels.map((l, i) => [l, i]))
  const english = data.train.filter(r => multiLabel || index.has(r.label))
  const rows = other === undefined ? english : [...english, ...other.train]
  const otherWeights = other === undefined ? [] : languageWeights(english, other.train)
  const y = rows.map(r => index.get(r.label) ?? -1)
  const w = [...english.map(r => r.weight ?? 1), ...otherWeights]
  const weights = spec.train.balance ? balance(y, w, spec.labels.length) : w
  return { data, other, index, rows, y, weights }
}

/** a validation set's metric and, on the half that did not fit the temperature, its calibration error (logged) */
export function scoreSet (v: Validation, probs: number[][], gold: number[], labels: number, multiLabel: boolean) {
  const m = confusion(
    gold.map(g => Math.max(0, g)),
    probs.map(argmax),
    labels
  )
  const value = v.metric.score(m, probs, gold)
  const halfP = probs.filter((_, i) => !fitsTemperature(v.rows[i]!.text))
  const halfG = gold.filter((_, i) => !fitsTemperature(v.rows[i]!.text))
  const cal = multiLabel || v.calibration === false ? NaN : ece(halfP, halfG)
  const eceNote = Number.isNaN(cal) ? '' : `  ECE ${cal.toFixed(3)}`
  log(`  ${v.name} (${v.split}, ${v.rows.length}): ${v.metric.name} ${value.toFixed(3)}${eceNote}`)
  const baseline = v.metric.baseline === undefined ? {} : { baseline: v.metric.baseline }
  return { dataset: v.name, split: v.split, metric: v.metric.name, value: Number(value.toFixed(4)), ...baseline }
}

export async function trainHead (op: string, spec: OpSpec, fit: FitOptions): Promise<string> {
  const { dir: encoderDir, encoder, cache } = await trainingEncoder()
  const { data, other, index, rows, y, weights } = headRows(op, spec, fit.multiLabel)
  log(`${op}: ${rows.length} training rows, ${data.validation.length} validation sets`)
  const x = await cache.vectors(
    rows.map(r => r.text),
    log
  )
  const t0 = performance.now()
  const fitted = fitHead(x, y, weights, spec.labels.length, fit)
  log(`${op}: head fitted in ${Math.round((performance.now() - t0) / 1000)} s`)
  const raw = new Head({ layers: fitted.layers, temperature: 1, multiLabel: fit.multiLabel }, fitted.weights)
  // the temperature, from the half of every validation set that fits it
  const fitLogits: number[][] = []
  const fitGold: number[] = []
  const sets = []
  for (const v of [...data.validation, ...(other?.validation ?? [])]) {
    const vectors = await cache.vectors(
      v.rows.map(r => r.text),
      log
    )
    const gold = v.rows.map(r => index.get(r.label) ?? -1)
    sets.push({ v, vectors, gold })
    if (v.calibration === false) continue
    v.rows.forEach((r, i) => {
      if (!fitsTemperature(r.text)) return
      fitLogits.push(Array.from(raw.logits(vectors[i] as Float32Array)))
      fitGold.push(gold[i] as number)
    })
  }
  const { temperature } = fitCalibration(fitLogits, fitGold, fit.multiLabel, undefined, false)
  const headSpec: HeadSpec = { layers: fitted.layers, temperature, multiLabel: fit.multiLabel }
  const head = new Head(headSpec, fitted.weights)
  const metrics = sets.map(({ v, vectors, gold }) =>
    scoreSet(v, vectors.map(vec => head.scores(vec)), gold, spec.labels.length, fit.multiLabel)
  )
  log(`${op}: temperature ${temperature.toFixed(3)}`)
  const out = writeHead(op, spec, fit, {
    head: headSpec,
    weights: fitted.weights,
    encoderDir,
    metrics,
    other,
    sources: data.sources
  })
  await encoder.close()
  return out
}

interface Trained {
  head: HeadSpec
  weights: Float32Array[]
  encoderDir: string
  metrics: Array<{ dataset: string; split: string; metric: string; value: number; baseline?: string }>
  other: LanguageData | undefined
  sources: ReturnType<OpSpec['data']>['sources']
}

const ENCODED = 'read by the text encoder (lib/text/encoder/)'
const INDEPENDENT = 'an independent score per label (sigmoid)'

/** Writes a trained head's folder: head.json, head.bin and the manifest; returns the folder. */
function writeHead (op: string, spec: OpSpec, fit: FitOptions, r: Trained): string {
  const also = r.other === undefined ? '' : ` Also: ${r.other.sources.map(x => x.name).join('; ')}.`
  const out = options.headOut ?? join(STORE, op, String(latest(join(STORE, op)) + 1))
  mkdirSync(out, { recursive: true })
  const version = Number(out.split('/').at(-1))
  writeFileSync(join(out, 'head.json'), JSON.stringify(r.head) + '\n')
  const flat = new Float32Array(r.weights.reduce((n, a) => n + a.length, 0))
  let at = 0
  for (const a of r.weights) {
    flat.set(a, at)
    at += a.length
  }
  writeFileSync(join(out, 'head.bin'), new Uint8Array(flat.buffer))
  const manifest = {
    name: op,
    version: Number.isInteger(version) ? version : 1,
    kind: 'encoder-head',
    description:
      spec.description +
      also +
      ' A head over the shared text encoder (model-store/text-encoder), which reads every language.',
    // a head with other languages' data (sentiment-multilingual) serves those languages only
    languages: [...(OPS[op] !== undefined || r.other === undefined ? ['en'] : []), ...(r.other?.languages ?? [])],
    labels: spec.labels,
    inputs: [{ name: 'text', dtype: 'string', shape: [null], description: ENCODED }],
    outputs: [
      {
        name: 'probabilities',
        dtype: 'float32',
        shape: [null, spec.labels.length],
        description: fit.multiLabel ? INDEPENDENT : 'probabilities over the labels (softmax)'
      }
    ],
    files: [relative(out, r.encoderDir), 'head.json', 'head.bin'],
    training: {
      command: `npm run train -- ${op}`,
      seed: fit.seed,
      data: [...r.sources, ...(r.other?.sources ?? [])],
      notes: JSON.stringify(fit)
    },
    metrics: r.metrics,
    created: new Date().toISOString()
  }
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
  return out
}

/** Heads trained on another op's spec: the multilingual sentiment head reads sentiment's rows too. */
export const SPEC_OF: Record<string, string> = {
  'sentiment-multilingual': 'sentiment',
  'emotion-multilingual': 'emotion',
  // English heads over the encoder: members of intent-blend, sarcasm-blend, new_intent-blend and emotion-blend
  'intent-head': 'intent',
  'emotion-head': 'emotion',
  'sarcasm-head': 'sarcasm',
  'new_intent-head': 'new_intent'
}

/** Trains the head of a model by its name, with the options of HEAD_* in the environment. */
export async function trainNamed (name: string): Promise<string> {
  const spec = OPS[SPEC_OF[name] ?? name]
  if (spec === undefined) throw new Error(`no op spec for ${name}`)
  const fit: FitOptions = {
    hidden: options.headHidden,
    epochs: options.headEpochs,
    lr: options.headLr,
    l2: options.headL2,
    batch: 128,
    seed: spec.train.seed,
    multiLabel: spec.train.multiLabel === true
  }
  return await trainHead(name, spec, fit)
}

const op = args[0]
if (op !== undefined && import.meta.filename === process.argv[1]) log(`wrote ${await trainNamed(op)}`)
