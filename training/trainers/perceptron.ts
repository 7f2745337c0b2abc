// An averaged structured perceptron over hashed token features with BIOES Viterbi decoding, trained
// by a loop of our own (TF.js cannot train embedding-style lookups at a usable speed here). Its
// emission weights are a [buckets, labels] table that serving gathers from with TF.js.
import { FEATURES } from '../../lib/text/ner/features.js'
import { NUM_LABELS, typeOf, isBegin } from '../../lib/text/ner/labels.js'
import { Scratch, marginals, viterbi } from '../../lib/text/ner/decode.js'
import { rng, shuffle } from './sparse-sgd.js'
import { constrainedGold } from '../readers/ner.js'

const L = NUM_LABELS

/** `target`: in-domain (TrainOpts.adapt); `free`: O labels that may hide a name, any label right there (constrainedGold) */
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

/**
 * `select: false` keeps the last epoch, the validation figures only logged (as `history`).
 * `adapt`: domain adaptation by feature augmentation (Daume 2007): every feature has a shared weight
 * and a target-domain one, the latter used and updated by the `target` examples only; the tagger
 * returned (and validated) is the target domain's, shared + target weights summed into one table.
 */
export interface TrainOpts {
  buckets: number
  epochs: number
  seed: number
  log: (s: string) => void
  name: string
  select?: boolean
  adapt?: boolean
  /** called with each epoch's averaged tagger */ onEpoch?: (epoch: number, m: Tagger) => void
}

/**
 * Averaged perceptron (Collins 2002) with the lazy-averaging trick: W holds the current weights, U the
 * sum of c * update, and the average after c steps is W - U / c. The epoch with the best validation
 * F1 is kept (unless o.select is false: the last). `data` may hold an example more than once (weighted).
 */
export function train (
  data: Encoded[],
  val: Encoded[],
  o: TrainOpts
): { model: Tagger; epoch: number; val: Prf; history: Prf[] } {
  const B = o.buckets
  const W = new Float32Array(B * L)
  const U = new Float64Array(B * L)
  const T = new Float32Array((L + 1) * L)
  const UT = new Float64Array((L + 1) * L)
  const maxN = Math.max(1, ...data.map(d => d.n))
  const E = new Float32Array(maxN * L)
  const out = new Uint8Array(maxN)
  const sc = new Scratch().fit(maxN)
  const work = new Float32Array(maxN * L)
  const partialGold = new Uint8Array(maxN)
  const rand = rng(o.seed)
  const order = data.map((_, i) => i)
  let c = 1
  let best: { model: Tagger; epoch: number; val: Prf } | null = null
  const history: Prf[] = []
  const average = (): Tagger => {
    const aw = new Float32Array(B * L)
    const at = new Float32Array((L + 1) * L)
    for (let i = 0; i < aw.length; i++) aw[i] = (W[i] as number) - (U[i] as number) / c
    for (let i = 0; i < at.length; i++) at[i] = (T[i] as number) - (UT[i] as number) / c
    return { W: aw, T: at, buckets: B }
  }
  const bump = (ids: Int32Array, t: number, y: number, d: number) => {
    for (let f = 0; f < FEATURES; f++) {
      const k = (ids[t * FEATURES + f] as number) * L + y
      W[k]! += d
      U[k]! += c * d
    }
  }
  const bumpT = (p: number, y: number, d: number) => {
    const k = (p < 0 ? L : p) * L + y
    T[k]! += d
    UT[k]! += c * d
  }
  // the target-domain weights of o.adapt, and the sum used to tag a target example
  const V = o.adapt === true ? new Float32Array(B * L) : undefined
  const UV = o.adapt === true ? new Float64Array(B * L) : undefined
  const TV = new Float32Array((L + 1) * L)
  const UTV = new Float64Array((L + 1) * L)
  const TT = new Float32Array((L + 1) * L)
  const EV = new Float32Array(maxN * L)
  const bumpV = (ids: Int32Array, t: number, y: number, d: number) => {
    for (let f = 0; f < FEATURES; f++) {
      const k = (ids[t * FEATURES + f] as number) * L + y
      V![k]! += d
      UV![k]! += c * d
    }
  }
  const bumpTV = (p: number, y: number, d: number) => {
    const k = (p < 0 ? L : p) * L + y
    TV[k]! += d
    UTV[k]! += c * d
  }
  const targetAverage = (m: Tagger): Tagger => {
    for (let i = 0; i < m.W.length; i++) m.W[i]! += (V![i] as number) - (UV![i] as number) / c
    for (let i = 0; i < m.T.length; i++) m.T[i]! += (TV[i] as number) - (UTV[i] as number) / c
    return m
  }
  for (let epoch = 1; epoch <= o.epochs; epoch++) {
    const t0 = performance.now()
    shuffle(order, rand)
    let errors = 0
    let tokens = 0
    for (const i of order) {
      const d = data[i] as Encoded
      const tgt = V !== undefined && d.target === true
      emissions(W, d.ids, d.n, E)
      if (tgt) {
        emissions(V, d.ids, d.n, EV)
        for (let k = 0; k < d.n * L; k++) E[k]! += EV[k] as number
        for (let k = 0; k < TT.length; k++) TT[k] = (T[k] as number) + (TV[k] as number)
      }
      viterbi(E, tgt ? TT : T, d.n, out, sc)
      const gold =
        d.free === undefined ? d.labels : constrainedGold(E, tgt ? TT : T, d.labels, d.free, d.n, partialGold, work, sc)
      tokens += d.n
      for (let t = 0; t < d.n; t++) {
        const g = gold[t] as number
        const p = out[t] as number
        const gp = t === 0 ? -1 : (gold[t - 1] as number)
        const pp = t === 0 ? -1 : (out[t - 1] as number)
        if (g !== p) {
          errors++
          bump(d.ids, t, g, 1)
          bump(d.ids, t, p, -1)
        }
        if (g !== p || gp !== pp) {
          bumpT(gp, g, 1)
          bumpT(pp, p, -1)
        }
        if (tgt && g !== p) {
          bumpV(d.ids, t, g, 1)
          bumpV(d.ids, t, p, -1)
        }
        if (tgt && (g !== p || gp !== pp)) {
          bumpTV(gp, g, 1)
          bumpTV(pp, p, -1)
        }
      }
      c++
    }
    const m = V === undefined ? average() : targetAverage(average())
    o.onEpoch?.(epoch, m)
    const v = evaluate(m, val)
    history.push(v)
    o.log(
      `  ${o.name} epoch ${epoch}: ${errors} token errors / ${tokens} (${((100 * errors) / tokens).toFixed(2)}%), ${val.length > 0 ? `validation F1 ${v.f1.toFixed(4)} (P ${v.p.toFixed(3)} R ${v.r.toFixed(3)})` : 'no validation'}, ${((performance.now() - t0) / 1000).toFixed(1)} s`
    )
    if (best === null || v.f1 > best.val.f1 || o.select === false) best = { model: m, epoch, val: v }
  }
  return { ...(best as { model: Tagger; epoch: number; val: Prf }), history }
}

/**
 * Bagging: `k` perceptrons, each on its own shuffle order (seeds o.seed, o.seed + 1, ...) and, with
 * `silverShare` < 1, its own random share of the examples that are not `target` (silver), their
 * averaged weights averaged again into one tagger of the same shape (so serving is unchanged). The
 * history is the bag's: after epoch e, the mean of every member's tagger after epoch e. k = 1 is
 * plain train().
 */
export function trainBagged (
  data: Encoded[],
  val: Encoded[],
  o: TrainOpts,
  k: number,
  silverShare = 1
): { model: Tagger; epoch: number; val: Prf; history: Prf[] } {
  if (k <= 1 && silverShare >= 1) return train(data, val, o)
  const sums: Tagger[] = []
  for (let j = 0; j < k; j++) {
    const rand = rng(o.seed + 7919 * (j + 1))
    const part = silverShare >= 1 ? data : data.filter(d => d.target === true || rand() < silverShare)
    train(part, val, {
      ...o,
      seed: o.seed + j,
      name: `${o.name} bag ${j + 1}/${k}`,
      onEpoch: (e, m) => {
        const s = sums[e - 1]
        if (s === undefined) {
          sums[e - 1] = { W: m.W, T: m.T, buckets: m.buckets }
          return
        }
        for (let i = 0; i < s.W.length; i++) s.W[i]! += m.W[i] as number
        for (let i = 0; i < s.T.length; i++) s.T[i]! += m.T[i] as number
      }
    })
    const last = sums[sums.length - 1] as Tagger
    const v = evaluate({ W: last.W.map(x => x / (j + 1)), T: last.T.map(x => x / (j + 1)), buckets: last.buckets }, val)
    if (val.length > 0) {
      o.log(
        `  ${o.name}: mean of the first ${j + 1} perceptrons after the last epoch: validation F1 ${v.f1.toFixed(4)} (P ${v.p.toFixed(3)} R ${v.r.toFixed(3)})`
      )
    }
  }
  for (const s of sums) {
    for (let i = 0; i < s.W.length; i++) s.W[i]! /= k
    for (let i = 0; i < s.T.length; i++) s.T[i]! /= k
  }
  const history = sums.map(s => evaluate(s, val))
  history.forEach((v, e) =>
    o.log(
      `  ${o.name} bag of ${k}, epoch ${e + 1}: ${val.length > 0 ? `validation F1 ${v.f1.toFixed(4)} (P ${v.p.toFixed(3)} R ${v.r.toFixed(3)})` : 'no validation'}`
    )
  )
  let best = sums.length - 1
  if (o.select !== false) {
    history.forEach((v, e) => {
      if (v.f1 > (history[best] as Prf).f1) best = e
    })
  }
  return { model: sums[best] as Tagger, epoch: best + 1, val: history[best] as Prf, history }
}

/**
 * The transitions with `penalty` taken from every move into O (and from the start into O): the same
 * as lowering each token's O score, so that Viterbi prefers entities where it was unsure (more recall;
 * the confidence thresholds then drop the weak ones). Stored in the transitions, so serving needs
 * nothing new.
 */
export function penaliseO (T: Float32Array, penalty: number): Float32Array {
  const out = Float32Array.from(T)
  for (let p = 0; p <= L; p++) out[p * L] = (out[p * L] as number) - penalty
  return out
}

/** the confidence temperatures tried: 2^(k/2) for k = -2 .. 12 */
export const TEMPERATURES = Array.from({ length: 15 }, (_, i) => 2 ** ((i - 2) / 2))

/** summed -log P(gold label) over the tokens of `data` at each of TEMPERATURES, and the token count */
export function calibrationLoss (m: Tagger, data: Encoded[]): { loss: number[]; n: number } {
  const maxN = Math.max(1, ...data.map(d => d.n))
  const E = new Float32Array(maxN * L)
  const sc = new Scratch().fit(maxN)
  const loss = TEMPERATURES.map(() => 0)
  let n = 0
  for (const [i, temp] of TEMPERATURES.entries()) {
    n = 0
    for (const d of data) {
      emissions(m.W, d.ids, d.n, E)
      const p = marginals(E, m.T, d.n, d.labels, temp, sc)
      for (let t = 0; t < d.n; t++) loss[i]! -= Math.log(Math.max(1e-9, p[t] as number))
      n += d.n
    }
  }
  return { loss, n }
}

/** the temperature of least mean loss (calibrationLoss results, summed over parts if pooled) */
export function bestTemperature (loss: number[], n: number): number {
  let best = 1
  let bestLoss = Infinity
  TEMPERATURES.forEach((temp, i) => {
    if ((loss[i] as number) / n < bestLoss) {
      bestLoss = (loss[i] as number) / n
      best = temp
    }
  })
  return best
}

/**
 * The temperature that turns perceptron scores into the best-calibrated token label probabilities:
 * minimum mean -log P(gold label) on the validation tokens, over a grid.
 */
export function calibrate (m: Tagger, data: Encoded[]): number {
  const { loss, n } = calibrationLoss(m, data)
  return bestTemperature(loss, n)
}

/** the predicted entities of `data` with their type, confidence (as served) and whether gold has them */
export interface Scored {
  spans: Array<{ type: number; conf: number; correct: boolean }>
  gold: number
}

export function scoreSpans (m: Tagger, data: Encoded[], temperature: number): Scored {
  const maxN = Math.max(1, ...data.map(d => d.n))
  const E = new Float32Array(maxN * L)
  const out = new Uint8Array(maxN)
  const sc = new Scratch().fit(maxN)
  const spansOut: Scored['spans'] = []
  let gold = 0
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
      spansOut.push({ type, conf, correct: g.has(s) })
    }
  }
  return { spans: spansOut, gold }
}

/** precision/recall/F1 when entities of type k below thresholds[k] are dropped */
export function applyThresholds (s: Scored, thresholds: number[]): Prf {
  let tp = 0
  let pred = 0
  for (const x of s.spans) {
    if (x.conf >= (thresholds[x.type] as number)) {
      pred++
      if (x.correct) tp++
    }
  }
  return prf(tp, pred, s.gold)
}

/**
 * Per-type confidence thresholds: an entity of type k whose confidence (mean forward-backward
 * probability of its token labels, as served) is below thresholds[k] is dropped. Out of domain the
 * perceptron over-predicts some types (German capitalised nouns as organisations), so each of
 * PER/ORG/LOC gets the grid value that maximises validation F1 (coordinate ascent, two rounds; a
 * change must gain 0.001 F1).
 */
export function pickThresholds (s: Scored, grid: number[]): { thresholds: number[]; val: Prf } {
  // tp[type][grid index], pred[type][grid index]
  const tp = [0, 1, 2].map(() => grid.map(() => 0))
  const pred = [0, 1, 2].map(() => grid.map(() => 0))
  for (const { type, conf, correct } of s.spans) {
    grid.forEach((th, i) => {
      if (conf >= th) {
        pred[type]![i]!++
        if (correct) tp[type]![i]!++
      }
    })
  }
  const pick = [0, 0, 0]
  const score = (k: number[]) =>
    prf(
      k.reduce((a, i, t) => a + (tp[t]![i] as number), 0),
      k.reduce((a, i, t) => a + (pred[t]![i] as number), 0),
      s.gold
    )
  for (let round = 0; round < 2; round++) {
    for (let t = 0; t < 3; t++) {
      for (let i = 0; i < grid.length; i++) {
        const k = [...pick]
        k[t] = i
        if (score(k).f1 > score(pick).f1 + 0.001) pick[t] = i
      }
    }
  }
  return { thresholds: pick.map(i => grid[i] as number), val: score(pick) }
}

export const fitThresholds = (
  m: Tagger,
  data: Encoded[],
  temperature: number,
  grid: number[]
): { thresholds: number[]; val: Prf } => pickThresholds(scoreSpans(m, data, temperature), grid)
