// An averaged structured perceptron over hashed token features with BIO Viterbi decoding, trained
// by a loop of our own (TF.js cannot train embedding-style lookups at a usable speed here). Its
// emission weights are a [buckets, labels] table that serving gathers from with TF.js.
import { FEATURES, NUM_LABELS, typeOf, isBegin } from '../lib/text/ner-features.js'
import { Scratch, marginals, viterbi } from '../lib/text/ner-decode.js'
import { rng, shuffle } from './fasttext.js'

const L = NUM_LABELS

export interface Encoded { ids: Int32Array, labels: Uint8Array, n: number }
export interface Tagger { W: Float32Array, T: Float32Array, buckets: number }

export function emissions (W: Float32Array, ids: Int32Array, n: number, out: Float32Array): Float32Array {
  out.fill(0, 0, n * L)
  for (let t = 0; t < n; t++) {
    const o = t * L
    for (let f = 0; f < FEATURES; f++) {
      const w = (ids[t * FEATURES + f] as number) * L
      for (let y = 0; y < L; y++) out[o + y]! += W[w + y] as number
    }
  }
  return out
}

/** entity spans "start:end:type" of a label sequence, PER/ORG/LOC only */
export function spans (labels: ArrayLike<number>, n: number): string[] {
  const out: string[] = []
  let start = -1; let type = -1
  for (let t = 0; t <= n; t++) {
    const y = t < n ? labels[t] as number : 0
    if (start >= 0 && (y === 0 || isBegin(y) || typeOf(y) !== type)) {
      if (type < 3) out.push(`${start}:${t}:${type}`)
      start = -1
    }
    if (y !== 0 && start < 0) { start = t; type = typeOf(y) }
  }
  return out
}

export interface Prf { p: number, r: number, f1: number, tp: number, pred: number, gold: number }
export function prf (tp: number, pred: number, gold: number): Prf {
  const p = pred === 0 ? 0 : tp / pred; const r = gold === 0 ? 0 : tp / gold
  return { p, r, f1: p + r === 0 ? 0 : 2 * p * r / (p + r), tp, pred, gold }
}

export function evaluate (m: Tagger, data: Encoded[]): Prf {
  const maxN = Math.max(1, ...data.map((d) => d.n))
  const E = new Float32Array(maxN * L); const out = new Uint8Array(maxN); const sc = new Scratch().fit(maxN)
  let tp = 0; let pred = 0; let gold = 0
  for (const d of data) {
    emissions(m.W, d.ids, d.n, E)
    viterbi(E, m.T, d.n, out, sc)
    const g = new Set(spans(d.labels, d.n)); const p = spans(out, d.n)
    gold += g.size; pred += p.length
    for (const s of p) if (g.has(s)) tp++
  }
  return prf(tp, pred, gold)
}

export interface TrainOpts { buckets: number, epochs: number, seed: number, log: (s: string) => void, name: string }

/**
 * Averaged perceptron (Collins 2002) with the lazy-averaging trick: W holds the current weights, U the
 * sum of c * update, and the average after c steps is W - U / c. The epoch with the best validation
 * F1 is kept.
 */
export function train (data: Encoded[], val: Encoded[], o: TrainOpts): { model: Tagger, epoch: number, val: Prf } {
  const B = o.buckets
  const W = new Float32Array(B * L); const U = new Float64Array(B * L)
  const T = new Float32Array((L + 1) * L); const UT = new Float64Array((L + 1) * L)
  const maxN = Math.max(1, ...data.map((d) => d.n))
  const E = new Float32Array(maxN * L); const out = new Uint8Array(maxN); const sc = new Scratch().fit(maxN)
  const rand = rng(o.seed)
  const order = data.map((_, i) => i)
  let c = 1
  let best: { model: Tagger, epoch: number, val: Prf } | null = null
  const average = (): Tagger => {
    const aw = new Float32Array(B * L); const at = new Float32Array((L + 1) * L)
    for (let i = 0; i < aw.length; i++) aw[i] = (W[i] as number) - (U[i] as number) / c
    for (let i = 0; i < at.length; i++) at[i] = (T[i] as number) - (UT[i] as number) / c
    return { W: aw, T: at, buckets: B }
  }
  const bump = (ids: Int32Array, t: number, y: number, d: number) => {
    for (let f = 0; f < FEATURES; f++) {
      const k = (ids[t * FEATURES + f] as number) * L + y
      W[k]! += d; U[k]! += c * d
    }
  }
  const bumpT = (p: number, y: number, d: number) => { const k = (p < 0 ? L : p) * L + y; T[k]! += d; UT[k]! += c * d }
  for (let epoch = 1; epoch <= o.epochs; epoch++) {
    const t0 = performance.now()
    shuffle(order, rand)
    let errors = 0; let tokens = 0
    for (const i of order) {
      const d = data[i] as Encoded
      emissions(W, d.ids, d.n, E)
      viterbi(E, T, d.n, out, sc)
      tokens += d.n
      for (let t = 0; t < d.n; t++) {
        const g = d.labels[t] as number; const p = out[t] as number
        const gp = t === 0 ? -1 : d.labels[t - 1] as number; const pp = t === 0 ? -1 : out[t - 1] as number
        if (g !== p) { errors++; bump(d.ids, t, g, 1); bump(d.ids, t, p, -1) }
        if (g !== p || gp !== pp) { bumpT(gp, g, 1); bumpT(pp, p, -1) }
      }
      c++
    }
    const m = average()
    const v = evaluate(m, val)
    o.log(`  ${o.name} epoch ${epoch}: ${errors} token errors / ${tokens} (${(100 * errors / tokens).toFixed(2)}%), validation F1 ${v.f1.toFixed(4)} (P ${v.p.toFixed(3)} R ${v.r.toFixed(3)}), ${((performance.now() - t0) / 1000).toFixed(1)} s`)
    if (best === null || v.f1 > best.val.f1) best = { model: m, epoch, val: v }
  }
  return best as { model: Tagger, epoch: number, val: Prf }
}

/**
 * The temperature that turns perceptron scores into the best-calibrated token label probabilities:
 * minimum mean -log P(gold label) on the validation tokens, over a grid.
 */
export function calibrate (m: Tagger, data: Encoded[]): number {
  const maxN = Math.max(1, ...data.map((d) => d.n))
  const E = new Float32Array(maxN * L); const sc = new Scratch().fit(maxN)
  let best = 1; let bestLoss = Infinity
  for (let k = -2; k <= 12; k++) {
    const temp = 2 ** (k / 2)
    let loss = 0; let n = 0
    for (const d of data) {
      emissions(m.W, d.ids, d.n, E)
      const p = marginals(E, m.T, d.n, d.labels, temp, sc)
      for (let t = 0; t < d.n; t++) loss -= Math.log(Math.max(1e-9, p[t] as number))
      n += d.n
    }
    if (loss / n < bestLoss) { bestLoss = loss / n; best = temp }
  }
  return best
}

/**
 * Per-type confidence thresholds: an entity of type k whose confidence (mean forward-backward
 * probability of its token labels, as served) is below thresholds[k] is dropped. Out of domain the
 * perceptron over-predicts some types (German capitalised nouns as organisations), so each of
 * PER/ORG/LOC gets the grid value that maximises validation F1 (coordinate ascent, two rounds; a
 * change must gain 0.001 F1).
 */
export function fitThresholds (m: Tagger, data: Encoded[], temperature: number, grid: number[]): { thresholds: number[], val: Prf } {
  const maxN = Math.max(1, ...data.map((d) => d.n))
  const E = new Float32Array(maxN * L); const out = new Uint8Array(maxN); const sc = new Scratch().fit(maxN)
  // tp[type][grid index], pred[type][grid index]
  const tp = [0, 1, 2].map(() => grid.map(() => 0)); const pred = [0, 1, 2].map(() => grid.map(() => 0)); let gold = 0
  for (const d of data) {
    emissions(m.W, d.ids, d.n, E)
    viterbi(E, m.T, d.n, out, sc)
    const p = marginals(E, m.T, d.n, out, temperature, sc)
    const g = new Set(spans(d.labels, d.n))
    gold += g.size
    for (const s of spans(out, d.n)) {
      const [a, b, type] = s.split(':').map(Number) as [number, number, number]
      let conf = 0
      for (let t = a; t < b; t++) conf += p[t] as number
      conf /= b - a
      grid.forEach((th, i) => { if (conf >= th) { pred[type]![i]!++; if (g.has(s)) tp[type]![i]!++ } })
    }
  }
  const pick = [0, 0, 0]
  const score = (k: number[]) => prf(k.reduce((a, i, t) => a + (tp[t]![i] as number), 0), k.reduce((a, i, t) => a + (pred[t]![i] as number), 0), gold)
  for (let round = 0; round < 2; round++) {
    for (let t = 0; t < 3; t++) {
      for (let i = 0; i < grid.length; i++) {
        const k = [...pick]; k[t] = i
        if (score(k).f1 > score(pick).f1 + 0.001) pick[t] = i
      }
    }
  }
  return { thresholds: pick.map((i) => grid[i] as number), val: score(pick) }
}
