// Text to hashed feature ids, shared by training and serving so that both see the same features:
// word unigrams and bigrams and character n-grams of words, hashed into a fixed number of buckets
// (id 0 is padding). Tweets are normalised first: addresses, user names and digits.

export interface FeatureConfig {
  buckets: number
  /** character n-gram sizes, e.g. [3, 5]; none when empty */
  charNgrams: number[]
  wordBigrams: boolean
  /** at most this many feature ids per text (the model's input length) */
  maxFeatures: number
  /** texts are read up to this many characters */
  maxChars: number
}

const URL_RE = /https?:\/\/\S+|www\.\S+/gi
const USER_RE = /@\w+/g
const TOKEN_RE = /[\p{L}\p{M}\p{N}_']+|[^\s\p{L}\p{M}\p{N}_']/gu

export function tokens (text: string, maxChars: number): string[] {
  const s = text.slice(0, maxChars).toLowerCase()
    .replace(URL_RE, ' xxurl ')
    .replace(USER_RE, ' xxuser ')
    .replace(/\d/g, '0')
    // elongations: "soooo" -> "sooo"
    .replace(/(.)\1{3,}/gu, '$1$1$1')
  return s.match(TOKEN_RE) ?? []
}

export function hash (s: string, buckets: number): number {
  let h = 2166136261
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619)
  return 1 + ((h >>> 0) % (buckets - 1))
}

/** Feature ids with equal weights summing to 1 (the model averages their vectors). */
export function featurise (text: string, cfg: FeatureConfig): { ids: Int32Array, weights: Float32Array } {
  const toks = tokens(text, cfg.maxChars)
  const feats: number[] = []
  for (let i = 0; i < toks.length && feats.length < cfg.maxFeatures; i++) {
    const t = toks[i] as string
    feats.push(hash('w ' + t, cfg.buckets))
    if (cfg.wordBigrams && i + 1 < toks.length) feats.push(hash('b ' + t + ' ' + (toks[i + 1] as string), cfg.buckets))
    if (cfg.charNgrams.length === 2 && t.length > 2) {
      const w = `<${t}>`
      for (let n = cfg.charNgrams[0] as number; n <= (cfg.charNgrams[1] as number); n++) {
        for (let j = 0; j + n <= w.length; j++) feats.push(hash('c ' + w.slice(j, j + n), cfg.buckets))
      }
    }
  }
  const n = Math.min(feats.length, cfg.maxFeatures)
  const ids = new Int32Array(n === 0 ? 1 : n)
  const weights = new Float32Array(ids.length)
  for (let i = 0; i < n; i++) { ids[i] = feats[i] as number; weights[i] = 1 / n }
  return { ids, weights }
}

/** A batch as padded [batch, width] arrays; width is the longest text's feature count. */
export function featuriseBatch (texts: string[], cfg: FeatureConfig): { ids: Int32Array, weights: Float32Array, width: number } {
  const rows = texts.map((t) => featurise(t, cfg))
  const width = Math.max(1, ...rows.map((r) => r.ids.length))
  const ids = new Int32Array(texts.length * width)
  const weights = new Float32Array(texts.length * width)
  rows.forEach((r, i) => { ids.set(r.ids, i * width); weights.set(r.weights, i * width) })
  return { ids, weights, width }
}
