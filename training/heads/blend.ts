// npm run train -- <name>-blend (sentiment-, intent-, sarcasm-blend): the blend's temperature. The blend
// (lib/text/heads/blend.ts) is read with none, over the validation sets of its operation's recipe that
// calibrate; the temperature that gives the least negative log-likelihood on their fitting halves
// (training/trainers/scores.ts fitsTemperature, the same halves the other classifiers fit on) is written
// into its manifest.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { classifierLoader } from '../../lib/text/classifier-kinds.js'
import { pool, type BlendSpec } from '../../lib/text/heads/blend.js'
import type { ModelManifest } from '../../schemas/model-manifest.js'
import { getTf } from '../../lib/runtime/tf.js'
import { OPS } from '../specs/ops.js'
import { fitsTemperature } from '../trainers/scores.js'
import { latest } from '../readers/store.js'

const STORE = join(import.meta.dirname, '..', '..', 'model-store')

/** Fits and writes the temperature of the blend in model-store/<name>'s highest version. */
export async function trainBlend (name: string, log: (s: string) => void = console.log): Promise<number> {
  const dir = join(STORE, name, String(latest(join(STORE, name))))
  const file = join(dir, 'manifest.json')
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as ModelManifest & { blend: BlendSpec }
  const plain = { ...manifest, blend: { ...manifest.blend, temperature: 1 } }
  const { tf } = await getTf()
  const model = await classifierLoader('blend')!(dir, plain, tf, { imageMaxPixels: 0 })
  const rows: Array<{ p: number[]; gold: number }> = []
  for (const v of (OPS[manifest.blend.op]?.data().validation ?? []).filter(x => x.calibration !== false)) {
    const fit = v.rows.filter(r => fitsTemperature(r.text) && manifest.labels.includes(r.label))
    const probs = (await model.predict(fit.map(r => r.text))) as number[][]
    fit.forEach((r, i) => rows.push({ p: probs[i] as number[], gold: manifest.labels.indexOf(r.label) }))
  }
  model.dispose()
  const nll = (t: number) => rows.reduce((a, r) => a - Math.log(pool([r.p], [1], t)[r.gold] as number), 0)
  let best = 1
  for (let t = 0.5; t <= 2.0001; t += 0.01) if (nll(t) < nll(best)) best = Number(t.toFixed(2))
  const mean = (t: number) => (nll(t) / rows.length).toFixed(4)
  log(`${name}: temperature ${best} (negative log-likelihood ${mean(1)} -> ${mean(best)} on ${rows.length} rows)`)
  writeFileSync(file, JSON.stringify({ ...manifest, blend: { ...manifest.blend, temperature: best } }, null, 2) + '\n')
  return best
}
