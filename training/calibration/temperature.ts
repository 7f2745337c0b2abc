// Temperature scaling with a bias per label, fitted after training on the calibration half of each
// validation set (training/trainers/scores.ts fitsTemperature picks the half; the other half reports the
// calibration error), each set weighing alike whatever its size. The fitted values are folded into
// the output layer (withTemperature), so the saved model serves calibrated scores as it is.
import { logitsAll, withTemperature, type Weights } from '../trainers/embedding-bag.js'
import { fitCalibration, fitsTemperature } from '../trainers/scores.js'
import type { FeatureConfig } from '../../lib/text/bag/features.js'
import type { WordVectors } from '../../lib/text/words/vectors.js'

/** a validation row: its text and its label's index (-1: no label, for independent scores) */
export interface HeldRow {
  text: string
  label: number
}

export interface Fitted {
  weights: Weights
  temperature: number
  bias: number[]
  rows: number
}

/** labelBias false: a temperature alone, so that no text's top label changes */
export function fitTemperatureOn (
  raw: Weights,
  sets: HeldRow[][],
  cfg: FeatureConfig,
  multiLabel: boolean,
  vectors?: WordVectors,
  labelBias = true
): Fitted {
  // a softmax cannot learn from a row no label fits
  const held = sets
    .map(rows => rows.filter(r => fitsTemperature(r.text) && (multiLabel || r.label >= 0)))
    .filter(rows => rows.length > 0)
  const cal = held.flat()
  const weightOf = held.flatMap(rows => rows.map(() => cal.length / (held.length * rows.length)))
  const fitted = fitCalibration(
    logitsAll(
      raw,
      cal.map(r => r.text),
      cfg,
      vectors
    ),
    cal.map(r => r.label),
    multiLabel,
    weightOf,
    labelBias
  )
  const bias = fitted.bias.map(b => Number(b.toFixed(4)))
  return {
    weights: withTemperature(raw, fitted.temperature, bias),
    temperature: fitted.temperature,
    bias,
    rows: cal.length
  }
}
