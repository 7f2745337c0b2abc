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

/** The temperature T minimising the negative log-likelihood of softmax(z / T) (or sigmoid per label, gold -1: no label) on held rows. */
export function fitTemperature (logits: number[][], gold: number[], multiLabel: boolean): number {
  const nll = (t: number) => {
    let s = 0
    logits.forEach((z, i) => {
      if (multiLabel) {
        z.forEach((v, c) => { const p = 1 / (1 + Math.exp(-v / t)); s -= Math.log(Math.max(1e-12, c === gold[i] ? p : 1 - p)) })
      } else {
        const m = Math.max(...z)
        const sum = z.reduce((a, v) => a + Math.exp((v - m) / t), 0)
        s -= (z[gold[i] as number]! - m) / t - Math.log(sum)
      }
    })
    return s
  }
  // golden-section search over log T in [log 0.1, log 20]
  let lo = Math.log(0.1); let hi = Math.log(20)
  const g = (Math.sqrt(5) - 1) / 2
  let a = hi - g * (hi - lo); let b = lo + g * (hi - lo)
  let fa = nll(Math.exp(a)); let fb = nll(Math.exp(b))
  for (let k = 0; k < 60; k++) {
    if (fa < fb) { hi = b; b = a; fb = fa; a = hi - g * (hi - lo); fa = nll(Math.exp(a)) } else { lo = a; a = b; fa = fb; b = lo + g * (hi - lo); fb = nll(Math.exp(b)) }
  }
  return Math.exp((lo + hi) / 2)
}

/** Half the validation rows, by a hash of the text, fit a model's temperature; the other half report its calibration. */
export function fitsTemperature (text: string): boolean {
  let h = 40503
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619)
  return ((h >>> 0) & 1) === 0
}
