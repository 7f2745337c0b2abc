// The NER perceptron's examples and tagger (training/trainers/perceptron.ts trains it): an encoded
// sentence, the emission scores a tagger gives its tokens, the entity spans of a label sequence, and
// the exact-span precision, recall and F1 of Viterbi decoding against gold.
import { FEATURES } from '../../lib/text/ner/features.js'
import { NUM_LABELS, typeOf, isBegin } from '../../lib/text/ner/labels.js'
import { Scratch, viterbi } from '../../lib/text/ner/decode.js'

const L = NUM_LABELS

/**
 * `target`: in-domain (TrainOpts.adapt); `free`: O labels that may hide a name, any label right there
 * (constrainedGold)
 */
export interface Encoded {
  ids: Int32Array
  labels: Uint8Array
  n: number
  target?: boolean
  free?: Uint8Array
}
export interface Tagger {
  W: Float32Array
  T: Float32Array
  buckets: number
}

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
  let start = -1
  let type = -1
  for (let t = 0; t <= n; t++) {
    const y = t < n ? (labels[t] as number) : 0
    if (start >= 0 && (y === 0 || isBegin(y) || typeOf(y) !== type)) {
      if (type < 3) out.push(`${start}:${t}:${type}`)
      start = -1
    }
    if (y !== 0 && start < 0) {
      start = t
      type = typeOf(y)
    }
  }
  return out
}

export interface Prf {
  p: number
  r: number
  f1: number
  tp: number
  pred: number
  gold: number
}
export function prf (tp: number, pred: number, gold: number): Prf {
  const p = pred === 0 ? 0 : tp / pred
  const r = gold === 0 ? 0 : tp / gold
  return { p, r, f1: p + r === 0 ? 0 : (2 * p * r) / (p + r), tp, pred, gold }
}

export function evaluate (m: Tagger, data: Encoded[]): Prf {
  const maxN = Math.max(1, ...data.map(d => d.n))
  const E = new Float32Array(maxN * L)
  const out = new Uint8Array(maxN)
  const sc = new Scratch().fit(maxN)
  let tp = 0
  let pred = 0
  let gold = 0
  for (const d of data) {
    emissions(m.W, d.ids, d.n, E)
    viterbi(E, m.T, d.n, out, sc)
    const g = new Set(spans(d.labels, d.n))
    const p = spans(out, d.n)
    gold += g.size
    pred += p.length
    for (const s of p) if (g.has(s)) tp++
  }
  return prf(tp, pred, gold)
}

/** pooled precision/recall/F1 of several scored parts (e.g. cross-validation folds) */
export const pool = (parts: Prf[]): Prf =>
  prf(
    parts.reduce((a, x) => a + x.tp, 0),
    parts.reduce((a, x) => a + x.pred, 0),
    parts.reduce((a, x) => a + x.gold, 0)
  )
