// Decoding of the NER tagger's per-token label scores, shared by training and serving: Viterbi for
// the best BIO sequence and forward-backward for the per-token label probabilities that become
// confidence scores. Transitions are a [(labels + 1), labels] matrix whose last row scores the start.
import { NUM_LABELS, allowed } from './ner-features.js'

const L = NUM_LABELS

/** -Infinity where BIO forbids a transition, 0 elsewhere; same layout as the transitions */
export const MASK: Float32Array = (() => {
  const m = new Float32Array((L + 1) * L)
  for (let p = -1; p < L; p++) for (let y = 0; y < L; y++) m[(p === -1 ? L : p) * L + y] = allowed(p, y) ? 0 : -Infinity
  return m
})()

/** scratch buffers for sequences up to n tokens, reused across calls */
export class Scratch {
  back = new Uint8Array(0); score = new Float64Array(0); beta = new Float64Array(0)
  fit (n: number): this {
    if (this.back.length < n * L) { this.back = new Uint8Array(n * L); this.score = new Float64Array(n * L); this.beta = new Float64Array(n * L) }
    return this
  }
}

/** best label sequence of n tokens under emission scores E [n, L] (from offset `at`) and transitions T */
export function viterbi (E: ArrayLike<number>, T: Float32Array, n: number, out: Uint8Array, s: Scratch, at = 0): Uint8Array {
  if (n === 0) return out
  s.fit(n)
  const { back, score } = s
  for (let y = 0; y < L; y++) score[y] = (E[at + y] as number) + (T[L * L + y] as number) + (MASK[L * L + y] as number)
  for (let t = 1; t < n; t++) {
    const prev = (t - 1) * L; const cur = t * L
    for (let y = 0; y < L; y++) {
      let best = -Infinity; let arg = 0
      for (let p = 0; p < L; p++) {
        const v = (score[prev + p] as number) + (T[p * L + y] as number) + (MASK[p * L + y] as number)
        if (v > best) { best = v; arg = p }
      }
      score[cur + y] = best + (E[at + cur + y] as number)
      back[cur + y] = arg
    }
  }
  let best = -Infinity; let arg = 0
  for (let y = 0; y < L; y++) if ((score[(n - 1) * L + y] as number) > best) { best = score[(n - 1) * L + y] as number; arg = y }
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
 * P(label of token t = labels[t]) for each t, treating scores / temperature as the log-potentials
 * of a linear-chain CRF. The perceptron is not trained as one, so the temperature (fitted on
 * validation data at training time) is what makes these probabilities roughly calibrated.
 */
export function marginals (E: ArrayLike<number>, T: Float32Array, n: number, labels: Uint8Array, temperature: number, s: Scratch, at = 0): Float64Array {
  const out = new Float64Array(n)
  if (n === 0) return out
  s.fit(n)
  const alpha = s.score; const beta = s.beta
  const k = 1 / temperature
  const tmp = new Float64Array(L)
  for (let y = 0; y < L; y++) alpha[y] = ((E[at + y] as number) + (T[L * L + y] as number)) * k + (MASK[L * L + y] as number)
  for (let t = 1; t < n; t++) {
    for (let y = 0; y < L; y++) {
      for (let p = 0; p < L; p++) tmp[p] = (alpha[(t - 1) * L + p] as number) + (T[p * L + y] as number) * k + (MASK[p * L + y] as number)
      alpha[t * L + y] = logSumExp(tmp, L) + (E[at + t * L + y] as number) * k
    }
  }
  for (let y = 0; y < L; y++) beta[(n - 1) * L + y] = 0
  for (let t = n - 2; t >= 0; t--) {
    for (let y = 0; y < L; y++) {
      for (let q = 0; q < L; q++) tmp[q] = (T[y * L + q] as number) * k + (MASK[y * L + q] as number) + (E[at + (t + 1) * L + q] as number) * k + (beta[(t + 1) * L + q] as number)
      beta[t * L + y] = logSumExp(tmp, L)
    }
  }
  for (let y = 0; y < L; y++) tmp[y] = alpha[(n - 1) * L + y] as number
  const z = logSumExp(tmp, L)
  for (let t = 0; t < n; t++) {
    const y = labels[t] as number
    out[t] = Math.exp((alpha[t * L + y] as number) + (beta[t * L + y] as number) - z)
  }
  return out
}
