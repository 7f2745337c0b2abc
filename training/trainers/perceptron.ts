// An averaged structured perceptron over hashed token features with BIOES Viterbi decoding, trained
// by a loop of our own (TF.js cannot train embedding-style lookups at a usable speed here). Its
// emission weights are a [buckets, labels] table that serving gathers from with TF.js. Its examples,
// emission scores and F1 are in perceptron-tagger.ts, its confidence (temperature, O penalty,
// thresholds) in perceptron-confidence.ts.
import { FEATURES } from '../../lib/text/ner/features.js'
import { NUM_LABELS } from '../../lib/text/ner/labels.js'
import { Scratch, viterbi } from '../../lib/text/ner/decode.js'
import { rng, shuffle } from './sparse-sgd.js'
import { emissions, evaluate, type Encoded, type Prf, type Tagger } from './perceptron-tagger.js'

const L = NUM_LABELS

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
 * The truth of a partly labelled example (Encoded.free in ner-perceptron.ts) under emission scores E and
 * transitions T: the best-scoring label sequence that keeps every entity label and every O not marked free
 * (the latent-variable perceptron of learning from partial annotation). Writes into `out`.
 */
export function constrainedGold (
  E: Float32Array,
  T: Float32Array,
  labels: Uint8Array,
  free: Uint8Array,
  n: number,
  out: Uint8Array,
  work: Float32Array,
  sc: Scratch
): Uint8Array {
  for (let t = 0; t < n; t++) {
    const g = labels[t] as number
    const open = g === 0 && free[t] === 1
    for (let y = 0; y < NUM_LABELS; y++) {
      work[t * NUM_LABELS + y] = open || y === g ? (E[t * NUM_LABELS + y] as number) : -1e30
    }
  }
  return viterbi(work, T, n, out, sc)
}

/**
 * One set of perceptron weights with the lazy-averaging trick: W and T hold the current emission and
 * transition weights, U and UT the sums of c * update, and the average after c steps is W - U / c.
 */
class Averaged {
  readonly buckets: number
  readonly W: Float32Array
  readonly U: Float64Array
  readonly T = new Float32Array((L + 1) * L)
  readonly UT = new Float64Array((L + 1) * L)

  constructor (buckets: number) {
    this.buckets = buckets
    this.W = new Float32Array(buckets * L)
    this.U = new Float64Array(buckets * L)
  }

  /** `d` added to label y's weights of the features of token t, at step c */
  bump (ids: Int32Array, t: number, y: number, d: number, c: number): void {
    for (let f = 0; f < FEATURES; f++) {
      const k = (ids[t * FEATURES + f] as number) * L + y
      this.W[k]! += d
      this.U[k]! += c * d
    }
  }

  /** `d` added to the weight of the move from label p (-1: the start) to label y, at step c */
  bumpT (p: number, y: number, d: number, c: number): void {
    const k = (p < 0 ? L : p) * L + y
    this.T[k]! += d
    this.UT[k]! += c * d
  }

  /** the averaged weights after c steps, as a tagger */
  average (c: number): Tagger {
    const aw = new Float32Array(this.buckets * L)
    const at = new Float32Array((L + 1) * L)
    for (let i = 0; i < aw.length; i++) aw[i] = (this.W[i] as number) - (this.U[i] as number) / c
    for (let i = 0; i < at.length; i++) at[i] = (this.T[i] as number) - (this.UT[i] as number) / c
    return { W: aw, T: at, buckets: this.buckets }
  }

  /** `m` with these averaged weights after c steps added to its own (target-domain onto shared ones) */
  addTo (m: Tagger, c: number): Tagger {
    for (let i = 0; i < m.W.length; i++) m.W[i]! += (this.W[i] as number) - (this.U[i] as number) / c
    for (let i = 0; i < m.T.length; i++) m.T[i]! += (this.T[i] as number) - (this.UT[i] as number) / c
    return m
  }
}

/** The buffers of one example's decoding, sized for the longest (maxN tokens). */
interface Work {
  E: Float32Array
  out: Uint8Array
  sc: Scratch
  work: Float32Array
  partialGold: Uint8Array
  /** a target example's target-domain emissions, and the shared + target transitions that tag it */
  EV: Float32Array
  TT: Float32Array
}

const workFor = (maxN: number): Work => ({
  E: new Float32Array(maxN * L),
  out: new Uint8Array(maxN),
  sc: new Scratch().fit(maxN),
  work: new Float32Array(maxN * L),
  partialGold: new Uint8Array(maxN),
  EV: new Float32Array(maxN * L),
  TT: new Float32Array((L + 1) * L)
})

/**
 * One perceptron step on example d at step c: it is tagged with the current weights (shared + target
 * ones for a `target` example when there are target weights), then each wrong token label and each wrong
 * move is taken from the weights and the gold one added (to the target weights as well for a target
 * example). Returns the token errors.
 */
function learn (d: Encoded, shared: Averaged, target: Averaged | undefined, c: number, w: Work): number {
  const tgt = target !== undefined && d.target === true
  const { E, out, EV, TT } = w
  emissions(shared.W, d.ids, d.n, E)
  if (tgt) {
    emissions(target.W, d.ids, d.n, EV)
    for (let k = 0; k < d.n * L; k++) E[k]! += EV[k] as number
    for (let k = 0; k < TT.length; k++) TT[k] = (shared.T[k] as number) + (target.T[k] as number)
  }
  viterbi(E, tgt ? TT : shared.T, d.n, out, w.sc)
  const gold =
    d.free === undefined
      ? d.labels
      : constrainedGold(E, tgt ? TT : shared.T, d.labels, d.free, d.n, w.partialGold, w.work, w.sc)
  let errors = 0
  for (let t = 0; t < d.n; t++) {
    const g = gold[t] as number
    const p = out[t] as number
    const gp = t === 0 ? -1 : (gold[t - 1] as number)
    const pp = t === 0 ? -1 : (out[t - 1] as number)
    if (g !== p) {
      errors++
      shared.bump(d.ids, t, g, 1, c)
      shared.bump(d.ids, t, p, -1, c)
    }
    if (g !== p || gp !== pp) {
      shared.bumpT(gp, g, 1, c)
      shared.bumpT(pp, p, -1, c)
    }
    if (tgt && g !== p) {
      target.bump(d.ids, t, g, 1, c)
      target.bump(d.ids, t, p, -1, c)
    }
    if (tgt && (g !== p || gp !== pp)) {
      target.bumpT(gp, g, 1, c)
      target.bumpT(pp, p, -1, c)
    }
  }
  return errors
}

const figures = (v: Prf) => `validation F1 ${v.f1.toFixed(4)} (P ${v.p.toFixed(3)} R ${v.r.toFixed(3)})`

/**
 * Averaged perceptron (Collins 2002) with the lazy-averaging trick: W holds the current weights, U the
 * sum of c * update, and the average after c steps is W - U / c. The epoch with the best validation
 * F1 is kept (unless o.select is false: the last). `data` may hold an example more than once (weighted).
 */
export function trainPerceptron (
  data: Encoded[],
  val: Encoded[],
  o: TrainOpts
): { model: Tagger; epoch: number; val: Prf; history: Prf[] } {
  const shared = new Averaged(o.buckets)
  // the target-domain weights of o.adapt
  const target = o.adapt === true ? new Averaged(o.buckets) : undefined
  const w = workFor(Math.max(1, ...data.map(d => d.n)))
  const rand = rng(o.seed)
  const order = data.map((_, i) => i)
  let c = 1
  let best: { model: Tagger; epoch: number; val: Prf } | null = null
  const history: Prf[] = []
  for (let epoch = 1; epoch <= o.epochs; epoch++) {
    const t0 = performance.now()
    shuffle(order, rand)
    let errors = 0
    let tokens = 0
    for (const i of order) {
      const d = data[i] as Encoded
      tokens += d.n
      errors += learn(d, shared, target, c, w)
      c++
    }
    const m = target === undefined ? shared.average(c) : target.addTo(shared.average(c), c)
    o.onEpoch?.(epoch, m)
    const v = evaluate(m, val)
    history.push(v)
    o.log(
      `  ${o.name} epoch ${epoch}: ${errors} token errors / ${tokens} (${((100 * errors) / tokens).toFixed(2)}%), ` +
        `${val.length > 0 ? figures(v) : 'no validation'}, ${((performance.now() - t0) / 1000).toFixed(1)} s`
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
  if (k <= 1 && silverShare >= 1) return trainPerceptron(data, val, o)
  const sums: Tagger[] = []
  for (let j = 0; j < k; j++) {
    const rand = rng(o.seed + 7919 * (j + 1))
    const part = silverShare >= 1 ? data : data.filter(d => d.target === true || rand() < silverShare)
    trainPerceptron(part, val, {
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
    const mean = { W: last.W.map(x => x / (j + 1)), T: last.T.map(x => x / (j + 1)), buckets: last.buckets }
    const v = evaluate(mean, val)
    if (val.length > 0) {
      o.log(
        `  ${o.name}: mean of the first ${j + 1} perceptrons after the last epoch: ${figures(v)}`
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
      `  ${o.name} bag of ${k}, epoch ${e + 1}: ${val.length > 0 ? figures(v) : 'no validation'}`
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
