// The validation side of a word-order classifier's training (training/trainers/text-cnn.ts): the temperature
// and label biases fitted on the calibration half of the validation rows, and each validation set's figures
// for the served model's answers.
import type { ModelManifest } from '../../schemas/model-manifest.js'
import { argmax, confusion, ece, fitCalibration, fitsTemperature } from './scores.js'
import type { Validation } from '../specs/ops.js'

const log = (s: string) => process.stderr.write(s + '\n')

/**
 * The temperature and a bias per label, fitted on the calibration half (training/trainers/scores.ts
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
    `  temperature ${fitted.temperature.toFixed(3)}, label biases ${bias.join(' ')} ` +
      `(fitted on ${cal.length} validation rows)`
  )
  return { T: fitted.temperature, bias }
}

/**
 * each validation set's metric for the served pass (and, beside it in the log, for the trainer's own logits),
 * and the calibration error of the half not used to fit the temperature
 */
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
