// Scores computed the same way by training (validation each epoch) and by npm run eval.
export function argmax (row: number[]): number {
  let best = 0
  for (let i = 1; i < row.length; i++) if ((row[i] as number) > (row[best] as number)) best = i
  return best
}

export function confusion (gold: number[], pred: number[], classes: number): number[][] {
  const m = Array.from({ length: classes }, () => new Array<number>(classes).fill(0))
  gold.forEach((g, i) => { m[g]![pred[i] as number]!++ })
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
  const p = precision(m, c); const r = recall(m, c)
  return p + r === 0 ? 0 : 2 * p * r / (p + r)
}

export const macroRecall = (m: number[][], classes: number[]) => classes.reduce((a, c) => a + recall(m, c), 0) / classes.length
export const macroF1 = (m: number[][], classes: number[]) => classes.reduce((a, c) => a + f1(m, c), 0) / classes.length
export const accuracy = (m: number[][]) => m.reduce((a, r, i) => a + (r[i] as number), 0) / m.reduce((a, r) => a + r.reduce((x, y) => x + y, 0), 0)

/**
 * Expected calibration error of the top label (15 equal-width bins): the gap between the score of
 * each text's highest-scoring label and how often that label is right, averaged over texts. gold
 * -1 (a text that no label fits, for independent per-label scores) is never right.
 */
export function ece (probs: number[][], gold: number[], bins = 15): number {
  const n = new Array<number>(bins).fill(0); const conf = new Array<number>(bins).fill(0); const hit = new Array<number>(bins).fill(0)
  probs.forEach((p, i) => {
    const top = argmax(p)
    const c = p[top] as number
    const b = Math.min(bins - 1, Math.floor(c * bins))
    n[b]!++; conf[b]! += c; hit[b]! += top === gold[i] ? 1 : 0
  })
  const total = probs.length
  return total === 0 ? 0 : n.reduce((a, k, b) => a + (k === 0 ? 0 : Math.abs(conf[b]! - hit[b]!)), 0) / total
}

/** Half the validation rows, by a hash of the text, fit a model's temperature; the other half report its calibration. */
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
export function fitCalibration (logits: number[][], gold: number[], multiLabel: boolean, weights?: number[]): { temperature: number, bias: number[] } {
  const classes = logits[0]?.length ?? 0
  const w = weights ?? logits.map(() => 1)
  const total = w.reduce((a, b) => a + b, 0)
  // a label with fewer than 20 held rows keeps a bias of 0 (it would only be pushed down)
  const count = new Array<number>(classes).fill(0)
  for (const g of gold) if (g >= 0) count[g]!++
  const seen = count.map((n) => n >= 20)
  // parameters: a = 1 / T, then one bias per label
  const theta = [1, ...new Array<number>(classes).fill(0)]
  const m = theta.map(() => 0); const v = theta.map(() => 0)
  const lr = 0.02; const b1 = 0.9; const b2 = 0.999
  for (let step = 1; step <= 600; step++) {
    const grad = theta.map(() => 0)
    logits.forEach((z, i) => {
      const s = z.map((x, c) => theta[0]! * x + theta[c + 1]!)
      let p: number[]
      if (multiLabel) p = s.map((x) => 1 / (1 + Math.exp(-x)))
      else { const mx = Math.max(...s); const e = s.map((x) => Math.exp(x - mx)); const sum = e.reduce((a, b) => a + b, 0); p = e.map((x) => x / sum) }
      p.forEach((pc, c) => {
        const r = w[i]! * (pc - (c === gold[i] ? 1 : 0)) / total
        grad[0]! += r * z[c]!
        grad[c + 1]! += r
      })
    })
    theta.forEach((_, k) => {
      if (k > 0 && !seen[k - 1]) return
      m[k] = b1 * m[k]! + (1 - b1) * grad[k]!
      v[k] = b2 * v[k]! + (1 - b2) * grad[k]! ** 2
      theta[k]! -= lr * (m[k]! / (1 - b1 ** step)) / (Math.sqrt(v[k]! / (1 - b2 ** step)) + 1e-8)
    })
    if (theta[0]! < 0.01) theta[0] = 0.01
  }
  return { temperature: 1 / theta[0]!, bias: theta.slice(1) }
}
