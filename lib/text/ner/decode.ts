// Decoding of the NER tagger's per-token label scores, shared by training and serving: Viterbi for
// the best BIOES label sequence (lib/text/ner/labels.ts) and forward-backward for the per-token
// label probabilities that become confidence scores. Transitions are a [(labels + 1), labels] matrix
// whose last row scores the start.
import { NUM_LABELS, allowed, canEnd } from './labels.js'

const L = NUM_LABELS

/** -Infinity where BIOES forbids a transition, 0 elsewhere; same layout as the transitions */
export const MASK: Float32Array = (() => {
  const m = new Float32Array((L + 1) * L)
  for (let p = -1; p < L; p++) for (let y = 0; y < L; y++) m[(p === -1 ? L : p) * L + y] = allowed(p, y) ? 0 : -Infinity
  return m
})()

/** -Infinity for the labels a sentence may not end on (inside an entity), 0 for the others */
export const END: Float32Array = Float32Array.from({ length: L }, (_, y) => (canEnd(y) ? 0 : -Infinity))

/** scratch buffers for sequences up to n tokens, reused across calls */
export class Scratch {
  back = new Uint8Array(0)
  score = new Float64Array(0)
  beta = new Float64Array(0)
  emit = new Float64Array(0)
  /** exp(transitions / temperature), masked, for the transitions and temperature last seen */
  pot = new Float64Array((L + 1) * L)
  potOf: Float32Array | null = null
  potK = NaN
  potRange = 0
  fit (n: number): this {
    if (this.back.length < n * L) {
      this.back = new Uint8Array(n * L)
      this.score = new Float64Array(n * L)
      this.beta = new Float64Array(n * L)
      this.emit = new Float64Array(n * L)
    }
    return this
  }
}

/** best label sequence of n tokens under emission scores E [n, L] (from offset `at`) and transitions T */
export function viterbi (
  E: ArrayLike<number>,
  T: Float32Array,
  n: number,
  out: Uint8Array,
  s: Scratch,
  at = 0
): Uint8Array {
  if (n === 0) return out
  s.fit(n)
  const { back, score } = s
  for (let y = 0; y < L; y++) score[y] = (E[at + y] as number) + (T[L * L + y] as number) + (MASK[L * L + y] as number)
  for (let t = 1; t < n; t++) {
    const prev = (t - 1) * L
    const cur = t * L
    for (let y = 0; y < L; y++) {
      let best = -Infinity
      let arg = 0
      for (let p = 0; p < L; p++) {
        const v = (score[prev + p] as number) + (T[p * L + y] as number) + (MASK[p * L + y] as number)
        if (v > best) {
          best = v
          arg = p
        }
      }
      score[cur + y] = best + (E[at + cur + y] as number)
      back[cur + y] = arg
    }
  }
  let best = -Infinity
  let arg = 0
  for (let y = 0; y < L; y++) {
    if ((score[(n - 1) * L + y] as number) + (END[y] as number) > best) {
      best = (score[(n - 1) * L + y] as number) + (END[y] as number)
      arg = y
    }
  }
  out[n - 1] = arg
  for (let t = n - 1; t > 0; t--) out[t - 1] = back[t * L + (out[t] as number)] as number
  return out
}

function logSumExp (xs: Float64Array, n: number): number {
  let m = -Infinity
  for (let i = 0; i < n; i++) if ((xs[i] as number) > m) m = xs[i] as number
  if (m === -Infinity) return m
  let s = 0
  for (let i = 0; i < n; i++) s += Math.exp((xs[i] as number) - m)
  return m + Math.log(s)
}

/**
 * exp(transitions / temperature), masked, each relative to the largest allowed one: s.pot, made again only
 * for other transitions or another temperature than last time (s.potRange: the allowed ones' range)
 */
function potentials (T: Float32Array, k: number, s: Scratch): Float64Array {
  const pot = s.pot
  if (s.potOf !== T || s.potK !== k) {
    let top = -Infinity
    let bottom = Infinity
    for (let i = 0; i < pot.length; i++) {
      if ((MASK[i] as number) !== 0) continue
      top = Math.max(top, (T[i] as number) * k)
      bottom = Math.min(bottom, (T[i] as number) * k)
    }
    for (let i = 0; i < pot.length; i++) pot[i] = (MASK[i] as number) === 0 ? Math.exp((T[i] as number) * k - top) : 0
    s.potOf = T
    s.potK = k
    s.potRange = top - bottom
  }
  return pot
}

/**
 * Each token's emission potentials into emit, exp(scores / temperature) relative to its largest; returns the
 * widest range of a token's scores / temperature.
 */
function emissionPotentials (E: ArrayLike<number>, n: number, k: number, emit: Float64Array, at: number): number {
  let widest = 0
  for (let t = 0; t < n; t++) {
    let top = -Infinity
    let bottom = Infinity
    for (let y = 0; y < L; y++) {
      const e = E[at + t * L + y] as number
      if (e > top) top = e
      if (e < bottom) bottom = e
    }
    widest = Math.max(widest, (top - bottom) * k)
    for (let y = 0; y < L; y++) emit[t * L + y] = Math.exp(((E[at + t * L + y] as number) - top) * k)
  }
  return widest
}

/**
 * P(label of token t = labels[t]) for each t, treating scores / temperature as the log-potentials
 * of a linear-chain CRF. The perceptron is not trained as one, so the temperature (fitted on
 * validation data at training time) is what makes these probabilities roughly calibrated.
 * Forward-backward in probability space, each token's potentials taken relative to its largest
 * and the forward and backward vectors rescaled at every token (a token's marginals are normalised
 * over its labels, so the scales cancel): no exp or log per label pair. Should a step underflow
 * (transition scores far apart at a low temperature), the same sums are taken in log space.
 */
export function marginals (
  E: ArrayLike<number>,
  T: Float32Array,
  n: number,
  labels: Uint8Array,
  temperature: number,
  s: Scratch,
  at = 0
): Float64Array {
  const out = new Float64Array(n)
  if (n === 0) return out
  s.fit(n)
  const k = 1 / temperature
  const pot = potentials(T, k, s)
  const alpha = s.score
  const beta = s.beta
  const emit = s.emit
  const widest = emissionPotentials(E, n, k, emit, at)
  // Every label is reached within two tokens from one as likely as the most likely (an entity's
  // inside from its begin, its begin from O), so within a rescaled vector no entry falls below
  // exp(-2 (widest + potRange)) of the largest, plus a little: below about exp(-700) it would
  // underflow.
  if (2 * (widest + s.potRange) + 2 * Math.log(L) > 600) return marginalsLog(E, T, n, labels, temperature, s, at, out)
  let sum = 0
  for (let y = 0; y < L; y++) {
    const a = (pot[L * L + y] as number) * (emit[y] as number)
    alpha[y] = a
    sum += a
  }
  if (!(sum > 0 && sum < Infinity)) return marginalsLog(E, T, n, labels, temperature, s, at, out)
  for (let y = 0; y < L; y++) alpha[y] = (alpha[y] as number) / sum
  for (let t = 1; t < n; t++) {
    sum = 0
    for (let y = 0; y < L; y++) {
      let a = 0
      for (let p = 0; p < L; p++) a += (alpha[(t - 1) * L + p] as number) * (pot[p * L + y] as number)
      a *= emit[t * L + y] as number
      alpha[t * L + y] = a
      sum += a
    }
    if (!(sum > 0 && sum < Infinity)) return marginalsLog(E, T, n, labels, temperature, s, at, out)
    for (let y = 0; y < L; y++) alpha[t * L + y] = (alpha[t * L + y] as number) / sum
  }
  for (let y = 0; y < L; y++) beta[(n - 1) * L + y] = (END[y] as number) === 0 ? 1 : 0
  for (let t = n - 2; t >= 0; t--) {
    sum = 0
    for (let y = 0; y < L; y++) {
      let b = 0
      for (let q = 0; q < L; q++) {
        b += (pot[y * L + q] as number) * (emit[(t + 1) * L + q] as number) * (beta[(t + 1) * L + q] as number)
      }
      beta[t * L + y] = b
      sum += b
    }
    if (!(sum > 0 && sum < Infinity)) return marginalsLog(E, T, n, labels, temperature, s, at, out)
    for (let y = 0; y < L; y++) beta[t * L + y] = (beta[t * L + y] as number) / sum
  }
  for (let t = 0; t < n; t++) {
    let z = 0
    for (let y = 0; y < L; y++) z += (alpha[t * L + y] as number) * (beta[t * L + y] as number)
    if (!(z > 0 && z < Infinity)) return marginalsLog(E, T, n, labels, temperature, s, at, out)
    const y = labels[t] as number
    out[t] = ((alpha[t * L + y] as number) * (beta[t * L + y] as number)) / z
  }
  return out
}

/** marginals in log space: slower (an exp per label pair), but it cannot underflow */
export function marginalsLog (
  E: ArrayLike<number>,
  T: Float32Array,
  n: number,
  labels: Uint8Array,
  temperature: number,
  s: Scratch,
  at = 0,
  out = new Float64Array(n)
): Float64Array {
  if (n === 0) return out
  s.fit(n)
  const alpha = s.score
  const beta = s.beta
  const k = 1 / temperature
  const tmp = new Float64Array(L)
  for (let y = 0; y < L; y++) {
    alpha[y] = ((E[at + y] as number) + (T[L * L + y] as number)) * k + (MASK[L * L + y] as number)
  }
  for (let t = 1; t < n; t++) {
    for (let y = 0; y < L; y++) {
      for (let p = 0; p < L; p++) {
        tmp[p] = (alpha[(t - 1) * L + p] as number) + (T[p * L + y] as number) * k + (MASK[p * L + y] as number)
      }
      alpha[t * L + y] = logSumExp(tmp, L) + (E[at + t * L + y] as number) * k
    }
  }
  for (let y = 0; y < L; y++) beta[(n - 1) * L + y] = END[y] as number
  for (let t = n - 2; t >= 0; t--) {
    for (let y = 0; y < L; y++) {
      for (let q = 0; q < L; q++) {
        tmp[q] =
          (T[y * L + q] as number) * k +
          (MASK[y * L + q] as number) +
          (E[at + (t + 1) * L + q] as number) * k +
          (beta[(t + 1) * L + q] as number)
      }
      beta[t * L + y] = logSumExp(tmp, L)
    }
  }
  for (let y = 0; y < L; y++) tmp[y] = (alpha[(n - 1) * L + y] as number) + (END[y] as number)
  const z = logSumExp(tmp, L)
  for (let t = 0; t < n; t++) {
    const y = labels[t] as number
    out[t] = Math.exp((alpha[t * L + y] as number) + (beta[t * L + y] as number) - z)
  }
  return out
}
