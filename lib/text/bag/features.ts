// Text to hashed feature ids, shared by training and serving so that both see the same features:
// word unigrams and bigrams and character n-grams of words, hashed into a fixed number of buckets
// (id 0 is padding). Tweets are normalised first: addresses, user names and digits.
import { negationScope } from '../words/negation.js'

export interface FeatureConfig {
  buckets: number
  /** character n-gram sizes, e.g. [3, 5]; none when empty */
  charNgrams: number[]
  wordBigrams: boolean
  /** at most this many feature ids per text (the model's input length) */
  maxFeatures: number
  /** texts are read up to this many characters */
  maxChars: number
  /**
   * the shared word-vector table the model also reads (a folder below model-store, e.g. word-vectors/1); none
   * when absent
   */
  vectors?: string
  /** also a feature for each word under negation (lib/text/words/negation.ts); none when absent */
  negation?: boolean
  /**
   * the word-vector input has the mean of the words under negation after the mean of all
   * (lib/text/bag/sentence-input.ts)
   */
  negatedVectors?: boolean
}

const URL_RE = /https?:\/\/\S+|www\.\S+/gi
const USER_RE = /@\w+/g
const TOKEN_RE = /[\p{L}\p{M}\p{N}_']+|[^\s\p{L}\p{M}\p{N}_']/gu

export function tokens (text: string, maxChars: number): string[] {
  const s = text
    .slice(0, maxChars)
    .toLowerCase()
    .replace(URL_RE, ' xxurl ')
    .replace(USER_RE, ' xxuser ')
    .replace(/\d/g, '0')
    // elongations: "soooo" -> "sooo"
    .replace(/(.)\1{3,}/gu, '$1$1$1')
  return s.match(TOKEN_RE) ?? []
}

export function hash (s: string, buckets: number): number {
  return finish(fnv(OFFSET, s, 0, s.length), buckets)
}

// FNV-1a, written to hash a prefix once and then slices of a string without building them
const OFFSET = 2166136261
function fnv (h: number, s: string, from: number, to: number): number {
  for (let i = from; i < to; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619)
  return h
}
const finish = (h: number, buckets: number) => 1 + ((h >>> 0) % (buckets - 1))
const W = fnv(OFFSET, 'w ', 0, 2)
const B = fnv(OFFSET, 'b ', 0, 2)
const C = fnv(OFFSET, 'c ', 0, 2)
const N = fnv(OFFSET, 'n ', 0, 2)

/**
 * Writes the text's feature ids into `out` from index 0, at most cfg.maxFeatures of them (`out` must
 * hold that many), and returns how many. featurise and the served embedding bag both read this.
 */
export function featureIds (text: string, cfg: FeatureConfig, out: Int32Array): number {
  const toks = tokens(text, cfg.maxChars)
  const max = cfg.maxFeatures
  let n = 0
  const [lo, hi] = cfg.charNgrams.length === 2 ? (cfg.charNgrams as [number, number]) : [0, -1]
  const negated = cfg.negation === true ? negationScope(toks) : undefined
  for (let i = 0; i < toks.length && n < max; i++) {
    const t = toks[i] as string
    out[n++] = finish(fnv(W, t, 0, t.length), cfg.buckets)
    if (negated?.[i] === 1 && n < max) out[n++] = finish(fnv(N, t, 0, t.length), cfg.buckets)
    if (cfg.wordBigrams && i + 1 < toks.length && n < max) {
      const next = toks[i + 1] as string
      out[n++] = finish(fnv(Math.imul(fnv(B, t, 0, t.length) ^ 32, 16777619), next, 0, next.length), cfg.buckets)
    }
    if (hi >= lo && t.length > 2) {
      const w = `<${t}>`
      for (let g = lo; g <= hi && n < max; g++) {
        for (let j = 0; j + g <= w.length && n < max; j++) out[n++] = finish(fnv(C, w, j, j + g), cfg.buckets)
      }
    }
  }
  return n
}

/** Feature ids with equal weights summing to 1 (the model averages their vectors). */
export function featurise (text: string, cfg: FeatureConfig): { ids: Int32Array; weights: Float32Array } {
  const buf = new Int32Array(Math.max(1, cfg.maxFeatures))
  const n = featureIds(text, cfg, buf)
  const ids = buf.slice(0, n === 0 ? 1 : n)
  const weights = new Float32Array(ids.length)
  if (n > 0) weights.fill(1 / n)
  return { ids, weights }
}

/** A batch as padded [batch, width] arrays; width is the longest text's feature count. */
export function featuriseBatch (
  texts: string[],
  cfg: FeatureConfig
): { ids: Int32Array; weights: Float32Array; width: number } {
  const rows = texts.map(t => featurise(t, cfg))
  const width = Math.max(1, ...rows.map(r => r.ids.length))
  const ids = new Int32Array(texts.length * width)
  const weights = new Float32Array(texts.length * width)
  rows.forEach((r, i) => {
    ids.set(r.ids, i * width)
    weights.set(r.weights, i * width)
  })
  return { ids, weights, width }
}
