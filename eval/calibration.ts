// Calibration rows of npm run eval: the expected calibration error of a classifier's top label on the
// half of each validation set that did not fit its calibration (training/trainers/scores.ts fitsTemperature),
// and one figure per classifier, every such half pooled with each set weighing alike: issue 20 asks
// for an ECE per classifier, and a set of 200 rows alone cannot tell 0.05 from noise.
import type { LoadedModel, ModelLoader } from '../lib/serving/loaded-model.js'
import type { ModelInfo } from '../lib/serving/registry.js'
import type { TF } from '../lib/runtime/tf.js'
import { inputCalibrationOf, withoutInputCalibration } from '../lib/text/calibration.js'
import { argmax, ece, eceFloor, eceOf, fitsTemperature, pooledTop } from '../training/trainers/scores.js'
import type { EvalRow } from './images.js'

type Classifier = LoadedModel<string, number[]>

/** The model without its calibration by input (lib/text/calibration.ts), for the 'before' figure; undefined for a
 * model without one. */
export async function withoutByInput (load: ModelLoader, info: ModelInfo, tf: TF): Promise<Classifier | undefined> {
  return inputCalibrationOf(info.manifest) === undefined
    ? undefined
    : ((await load(info.dir, withoutInputCalibration(info.manifest), tf, { imageMaxPixels: 0 })) as Classifier)
}

/** The ECE row's note of the same half scored before the calibration by input ('' without one). */
export async function beforeByInput (
  bare: Classifier | undefined,
  texts: string[],
  half: CalibrationHalf
): Promise<string> {
  if (bare === undefined) return ''
  const before = await bare.predict(texts.filter(t => !fitsTemperature(t)))
  return `; ${ece(before, half.gold).toFixed(3)} before calibration by input`
}

/** One validation set's rows that did not fit the calibration: the served scores and the gold label (-1: no label
 * fits). */
export interface CalibrationHalf {
  name: string
  probs: number[][]
  gold: number[]
}

/** The rows of a validation set that did not fit the calibration, by their texts. */
export function heldHalf (name: string, texts: string[], probs: number[][], gold: number[]): CalibrationHalf {
  const keep = texts.map((t, i) => (fitsTemperature(t) ? -1 : i)).filter(i => i >= 0)
  return { name, probs: keep.map(i => probs[i]!), gold: keep.map(i => gold[i]!) }
}

const top = (probs: number[][]) => probs.map(p => p[argmax(p)] as number)
const right = (h: CalibrationHalf) => h.probs.map((p, i) => argmax(p) === h.gold[i])

/** The ECE row of one set's half, with what a perfectly calibrated model would still show on as many rows. */
export function calibrationRow (model: string, dataset: string, half: CalibrationHalf, before?: string): EvalRow {
  const floor = eceFloor(top(half.probs))
  return {
    model,
    dataset: `${dataset} (half not used for calibration, ${half.probs.length})`,
    metric: 'expected calibration error (top label)',
    value: eceOf(top(half.probs), right(half)),
    baseline: `target <= 0.05${before ?? ''}; ${floor.toFixed(3)} for a calibrated model on as many rows`
  }
}

/** The classifier's one ECE: every set's half pooled, each set weighing alike whatever its size. */
export function pooledCalibrationRow (model: string, halves: CalibrationHalf[]): EvalRow | undefined {
  const used = halves.filter(h => h.probs.length > 0)
  if (used.length === 0) return undefined
  const { conf, hits, weights } = pooledTop(used)
  const n = conf.length
  const floor = eceFloor(conf, 200, 1, weights)
  return {
    model,
    dataset:
      'every validation set above, the half not used for calibration, pooled ' +
      `(${used.length} sets, ${n} rows, each set weighing alike)`,
    metric: 'expected calibration error of the classifier (top label)',
    value: eceOf(conf, hits, 15, weights),
    baseline: `target <= 0.05; ${floor.toFixed(3)} for a calibrated model on as many rows`
  }
}
