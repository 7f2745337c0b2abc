// Sentence vectors of the similarity model from the shared word-vector table (lib/text/word-vectors.ts,
// model-store/word-vectors): SIF (Arora, Liang and Ma 2017), each word's vector weighted by
// a / (a + p(word)) so that frequent words count little, and the common component removed: the
// first principal direction of the training sentences' vectors, which mostly says "this is a
// sentence" (frequency, syntax) rather than what it means. Shared by training and serving.
import { vectorWords, type WordVectors } from './word-vectors.js'

export const SIF_FEATURES = ['sif_cos', 'sif_cos_raw', 'sif_known_min'] as const

/** The SIF vector of a text (L2-normalised, zeros when no word is known) and how many words were known. */
export function sifVector (text: string, wv: WordVectors): { v: Float64Array, known: number, words: number } {
  const words = vectorWords(text)
  const v = new Float64Array(wv.dim)
  const known = wv.sentence(words, v)
  return { v, known, words: words.length }
}

/** `v` with its projection on the unit vector `u` taken out (in place) */
function removeComponent (v: Float64Array, u: ArrayLike<number>): Float64Array {
  let d = 0
  for (let i = 0; i < v.length; i++) d += (v[i] as number) * (u[i] as number)
  for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) - d * (u[i] as number)
  return v
}

function cosine (a: Float64Array, b: Float64Array): number {
  let s = 0; let na = 0; let nb = 0
  for (let i = 0; i < a.length; i++) { s += (a[i] as number) * (b[i] as number); na += (a[i] as number) ** 2; nb += (b[i] as number) ** 2 }
  return na > 0 && nb > 0 ? s / Math.sqrt(na * nb) : 0
}

/**
 * The pair's SIF features, in SIF_FEATURES order: cosine with the common component `pc` removed,
 * cosine without removing it, and the smaller share of either side's words the table knows.
 */
export function sifFeatures (a: string, b: string, wv: WordVectors, pc: ArrayLike<number>): number[] {
  const x = sifVector(a, wv); const y = sifVector(b, wv)
  const raw = cosine(x.v, y.v)
  const cos = cosine(removeComponent(x.v, pc), removeComponent(y.v, pc))
  const share = (s: { known: number, words: number }) => (s.words === 0 ? 0 : s.known / s.words)
  return [cos, raw, Math.min(share(x), share(y))]
}

/** The first principal direction (uncentred, as SIF does) of sentence vectors, by power iteration from a fixed start. */
export function commonComponent (vectors: Float64Array[], dim: number, iterations = 100): number[] {
  let u = new Float64Array(dim).fill(1 / Math.sqrt(dim))
  for (let it = 0; it < iterations; it++) {
    const next = new Float64Array(dim)
    for (const x of vectors) {
      let d = 0
      for (let i = 0; i < dim; i++) d += (x[i] as number) * (u[i] as number)
      for (let i = 0; i < dim; i++) next[i] = (next[i] as number) + d * (x[i] as number)
    }
    const n = Math.sqrt(next.reduce((s, v) => s + v * v, 0))
    if (n === 0) break
    u = next.map((v) => v / n)
  }
  return Array.from(u, (v) => Number(v.toPrecision(7)))
}
