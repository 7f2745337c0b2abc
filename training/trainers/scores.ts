// Scores computed the same way by training (validation each epoch) and by npm run eval.
import { rng } from './sparse-sgd.js'
export function argmax (row: number[]): number {
  let best = 0
  for (let i = 1; i < row.length; i++) if ((row[i] as number) > (row[best] as number)) best = i
  return best
}

export function confusion (gold: number[], pred: number[], classes: number): number[][] {
  const m = Array.from({ length: classes }, () => new Array<number>(classes).fill(0))
  gold.forEach((g, i) => {
    m[g]![pred[i] as number]!++
  })
  return m
}

export function recall (m: number[][], c: number): number {
  const row = m[c]!.reduce((a, b) => a + b, 0)
  return row === 0 ? 0 : (m[c]![c] as number) / row
}

export function precision (m: number[][], c: number): number {
  const col = m.reduce((a, r) => a + (r[c] as number), 0)
  return col === 0 ? 0 : (m[c]![c] as number) / col
}

export function f1 (m: number[][], c: number): number {
  const p = precision(m, c)
  const r = recall(m, c)
  return p + r === 0 ? 0 : (2 * p * r) / (p + r)
}

export const macroRecall = (m: number[][], classes: number[]) =>
  classes.reduce((a, c) => a + recall(m, c), 0) / classes.length
export const macroF1 = (m: number[][], classes: number[]) => classes.reduce((a, c) => a + f1(m, c), 0) / classes.length
export const accuracy = (m: number[][]) =>
  m.reduce((a, r, i) => a + (r[i] as number), 0) / m.reduce((a, r) => a + r.reduce((x, y) => x + y, 0), 0)

/**
 * Expected calibration error of the top label (15 equal-width bins): the gap between the score of
 * each text's highest-scoring label and how often that label is right, averaged over texts. gold
 * -1 (a text that no label fits, for independent per-label scores) is never right.
 */
export function ece (probs: number[][], gold: number[], bins = 15): number {
  const conf = probs.map(p => p[argmax(p)] as number)
  return eceOf(
    conf,
    probs.map((p, i) => argmax(p) === gold[i]),
    bins
  )
}

/**
 * The expected calibration error of answers given with these confidences, right or not; with
 * weights, each answer counts by its weight (several sets pooled, each weighing alike).
 */
export function eceOf (conf: number[], right: boolean[], bins = 15, weights?: number[]): number {
  const n = new Array<number>(bins).fill(0)
  const sum = new Array<number>(bins).fill(0)
  const hit = new Array<number>(bins).fill(0)
  let total = 0
  conf.forEach((c, i) => {
    const b = Math.min(bins - 1, Math.floor(c * bins))
    const w = weights?.[i] ?? 1
    n[b]! += w
    sum[b]! += w * c
    hit[b]! += right[i] ? w : 0
    total += w
  })
  return total === 0 ? 0 : n.reduce((a, k, b) => a + (k === 0 ? 0 : Math.abs(sum[b]! - hit[b]!)), 0) / total
}

/**
 * Several sets' rows pooled, each set weighing alike whatever its size: every row's top-label confidence,
 * whether that label is right, and the row's weight (for eceOf and eceFloor).
 */
export function pooledTop (sets: ReadonlyArray<{ probs: number[][]; gold: number[] }>): {
  conf: number[]
  hits: boolean[]
  weights: number[]
} {
  const used = sets.filter(h => h.probs.length > 0)
  return {
    conf: used.flatMap(h => h.probs.map(p => p[argmax(p)] as number)),
    hits: used.flatMap(h => h.probs.map((p, i) => argmax(p) === h.gold[i])),
    weights: used.flatMap(h => h.probs.map(() => 1 / h.probs.length))
  }
}

/**
 * The calibration error a perfectly calibrated model would still show on so few rows: the mean ECE
 * of answers with these confidences, each right with the probability it claims (draws of a seeded
 * generator). On a few hundred rows it is several hundredths, the size of the 0.05 target.
 */
export function eceFloor (conf: number[], draws = 200, seed = 1, weights?: number[]): number {
  const rand = rng(seed)
  let total = 0
  for (let d = 0; d < draws; d++) {
    total += eceOf(
      conf,
      conf.map(c => rand() < c),
      15,
      weights
    )
  }
  return total / draws
}

/**
 * Half the validation rows, by a hash of the text, fit a model's temperature; the other half report its
 * calibration.
 */
export function fitsTemperature (text: string): boolean {
  let h = 40503
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619)
  return ((h >>> 0) & 1) === 0
}

/**
 * Temperature and a bias per label (vector scaling without the rotation): logits z become
 * z / T + d. The bias undoes the prior shift of class-balanced training (a rare class is
 * over-weighted, so its scores come out too high). Both are fitted together by Adam on the
 * weighted negative log-likelihood of held rows, from T = 1 and d = 0.
 */
export function fitCalibration (
  logits: number[][],
  gold: number[],
  multiLabel: boolean,
  weights?: number[],
  labelBias = true
): { temperature: number; bias: number[] } {
  const classes = logits[0]?.length ?? 0
  const w = weights ?? logits.map(() => 1)
  const total = w.reduce((a, b) => a + b, 0)
  // a label with fewer than 20 held rows keeps a bias of 0 (it would only be pushed down); with
  // labelBias false every bias stays 0 (a temperature alone never changes the top label)
  const count = new Array<number>(classes).fill(0)
  for (const g of gold) if (g >= 0) count[g]!++
  const seen = count.map(n => labelBias && n >= 20)
  // parameters: a = 1 / T, then one bias per label
  const theta = [1, ...new Array<number>(classes).fill(0)]
  const m = theta.map(() => 0)
  const v = theta.map(() => 0)
  const lr = 0.02
  const b1 = 0.9
  const b2 = 0.999
  for (let step = 1; step <= 600; step++) {
    const grad = theta.map(() => 0)
    logits.forEach((z, i) => {
      const s = z.map((x, c) => theta[0]! * x + theta[c + 1]!)
      let p: number[]
      if (multiLabel) p = s.map(x => 1 / (1 + Math.exp(-x)))
      else {
        const mx = Math.max(...s)
        const e = s.map(x => Math.exp(x - mx))
        const sum = e.reduce((a, b) => a + b, 0)
        p = e.map(x => x / sum)
      }
      p.forEach((pc, c) => {
        const r = (w[i]! * (pc - (c === gold[i] ? 1 : 0))) / total
        grad[0]! += r * z[c]!
        grad[c + 1]! += r
      })
    })
    theta.forEach((_, k) => {
      if (k > 0 && !seen[k - 1]) return
      m[k] = b1 * m[k]! + (1 - b1) * grad[k]!
      v[k] = b2 * v[k]! + (1 - b2) * grad[k]! ** 2
      theta[k]! -= (lr * (m[k]! / (1 - b1 ** step))) / (Math.sqrt(v[k]! / (1 - b2 ** step)) + 1e-8)
    })
    if (theta[0]! < 0.01) theta[0] = 0.01
  }
  return { temperature: 1 / theta[0]!, bias: theta.slice(1) }
}

/**
 * Calibration by input (lib/text/calibration.ts): logits z become z / T(x) + d + e + f * u with
 * log T(x) = a + b * u + c * k + g * q, u and k a text's centred log(1 + tokens) and share of known
 * words, q = log(the parts a model reads a long text in; 0 for one part, and g stays 0 when no text has
 * more); e + f * u, a shift of every label alike, only for independent scores (a softmax ignores it).
 * Fitted like fitCalibration, by Adam on the weighted negative log-likelihood, from T = 1 and
 * d = 0. useKnown false keeps c at 0; labelBias false keeps d at 0 (the order of the labels then never
 * changes). topOnly (independent scores): the loss of each text's top
 * label alone, right or wrong, which is what the calibration error of the top label measures.
 * A softmax's biases are kept centred on the labels seen, so that a label without fitting rows
 * (its bias fixed at 0) is not pushed down by the others all rising together.
 */
export function fitInputCalibration (
  logits: number[][],
  shapes: Array<{ u: number; k: number; q?: number }>,
  gold: number[],
  multiLabel: boolean,
  opts: { weights?: number[]; useKnown?: boolean; topOnly?: boolean; labelBias?: boolean; steps?: number } = {}
): { a: number; b: number; c: number; e: number; f: number; g: number; bias: number[] } {
  const classes = logits[0]?.length ?? 0
  const w = opts.weights ?? logits.map(() => 1)
  const total = w.reduce((a, b) => a + b, 0)
  const count = new Array<number>(classes).fill(0)
  for (const g of gold) if (g >= 0) count[g]!++
  const seen = count.map(n => n >= 20)
  const P = 6
  // parameters: a, b, c, e, f, g (log parts: learnt only when some text has more than one), then one bias per label
  const theta = [0, 0, 0, 0, 0, 0, ...new Array<number>(classes).fill(0)]
  const parted = shapes.some(x => (x.q ?? 0) > 0)
  const frozen = theta.map(
    (_, j) =>
      (j >= P && (!seen[j - P] || opts.labelBias === false)) ||
      (j === 2 && opts.useKnown === false) ||
      ((j === 3 || j === 4) && !multiLabel) ||
      (j === 5 && !parted)
  )
  const m = theta.map(() => 0)
  const v = theta.map(() => 0)
  const lr = 0.02
  const b1 = 0.9
  const b2 = 0.999
  const s = new Array<number>(classes).fill(0)
  for (let step = 1; step <= (opts.steps ?? 800); step++) {
    const grad = theta.map(() => 0)
    logits.forEach((z, i) => {
      const { u, k } = shapes[i]!
      const q = shapes[i]!.q ?? 0
      const inv = Math.exp(-(theta[0]! + theta[1]! * u + theta[2]! * k + theta[5]! * q))
      const shift = theta[3]! + theta[4]! * u
      for (let c = 0; c < classes; c++) s[c] = z[c]! * inv + theta[c + P]! + shift
      let p: number[]
      if (multiLabel) p = s.map(x => 1 / (1 + Math.exp(-x)))
      else {
        const mx = Math.max(...s)
        const e = s.map(x => Math.exp(x - mx))
        const sum = e.reduce((a, b) => a + b, 0)
        p = e.map(x => x / sum)
      }
      const top = opts.topOnly === true && multiLabel ? argmax(s) : -1
      let dg = 0
      let ds = 0
      p.forEach((pc, c) => {
        if (top >= 0 && c !== top) return
        const r = (w[i]! * (pc - (c === gold[i] ? 1 : 0))) / total
        dg -= r * z[c]! * inv
        ds += r
        grad[c + P]! += r
      })
      grad[0]! += dg
      grad[1]! += dg * u
      grad[2]! += dg * k
      grad[3]! += ds
      grad[4]! += ds * u
      grad[5]! += dg * q
    })
    theta.forEach((_, j) => {
      if (frozen[j]) return
      m[j] = b1 * m[j]! + (1 - b1) * grad[j]!
      v[j] = b2 * v[j]! + (1 - b2) * grad[j]! ** 2
      theta[j]! -= (lr * (m[j]! / (1 - b1 ** step))) / (Math.sqrt(v[j]! / (1 - b2 ** step)) + 1e-8)
    })
    if (!multiLabel) {
      const on = seen.map((x, c) => (x ? c : -1)).filter(c => c >= 0)
      const mean = on.reduce((a, c) => a + theta[c + P]!, 0) / Math.max(1, on.length)
      for (const c of on) theta[c + P]! -= mean
    }
  }
  return { a: theta[0]!, b: theta[1]!, c: theta[2]!, e: theta[3]!, f: theta[4]!, g: theta[5]!, bias: theta.slice(P) }
}
