// Pair features of the similarity model, shared by training (training/similarity.ts) and serving
// (lib/text/similarity.ts) so both compute exactly the same numbers. TF.js cannot train embedding
// layers here, so the network only sees these hand-made features: lexical overlaps, TF-IDF cosines
// with IDF from the training sentences, and a soft word alignment over frozen word vectors.
import { createRequire } from 'node:module'
import { align, meanVector, vcos, vectorOf, type WordVectors } from './similarity-vectors.js'

/** Feature names, in vector order; the manifest and features.json list them too. */
export const FEATURES = [
  'tfidf_words', 'tfidf_chars', 'jaccard', 'overlap_min', 'overlap_max', 'jaccard_content', 'jaccard_idf',
  'jaccard_stems', 'jaccard_bigrams', 'lcs_max', 'lcs_min', 'numbers_both', 'numbers_equal', 'numbers_jaccard',
  'negation_mismatch', 'negation_any', 'length_ratio', 'length_diff', 'length_min', 'length_max',
  'align_mean', 'align_min', 'align_unmatched', 'mean_vector_cos', 'vector_coverage',
  'align_content_mean', 'align_content_min', 'fuzzy_mean', 'fuzzy_min',
  'lang_en', 'lang_de', 'lang_es', 'lang_nl'
] as const
export const LANGS = ['en', 'de', 'es', 'nl'] as const

// Sentences in STS are under 60 words; beyond these caps a text only costs time, so a 100,000-char
// input stays within a few milliseconds. Alignment and LCS are quadratic, hence the smaller cap.
export const MAX_TOKENS = 2000
const MAX_ALIGN = 128

export interface IdfTable { words: Uint8Array, chars: Uint8Array }
/** IDF in hashed buckets, one byte each (value / IDF_STEP); buckets a training sentence never hit hold the highest IDF. */
export const IDF_STEP = 0.05
export const WORD_BUCKETS = 1 << 16
export const CHAR_BUCKETS = 1 << 18
const CHAR_N = [3, 4]

const WORD = /[\p{L}\p{N}]+/gu
const DIGITS = /^\p{N}+$/u

export function tokens (text: string): string[] {
  const out = text.toLowerCase().match(WORD) ?? []
  return out.length > MAX_TOKENS ? out.slice(0, MAX_TOKENS) : out
}

export function hash (s: string): number {
  let h = 2166136261
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619)
  return h >>> 0
}

/** Character n-grams over the normalised token sequence, so punctuation and case do not count. */
export function charGrams (toks: string[]): string[] {
  const s = ` ${toks.join(' ')} `
  const out: string[] = []
  for (const n of CHAR_N) for (let i = 0; i + n <= s.length; i++) out.push(s.slice(i, i + n))
  return out
}

const NEGATIONS: Record<string, Set<string>> = {
  en: new Set(['not', 'no', 'never', 'nobody', 'nothing', 'none', 'neither', 'nor', 'nowhere', 'without', 'cannot', 't']),
  de: new Set(['nicht', 'kein', 'keine', 'keiner', 'keinen', 'keinem', 'keines', 'nie', 'niemals', 'niemand', 'nichts', 'ohne', 'weder', 'nirgends']),
  es: new Set(['no', 'nunca', 'nadie', 'nada', 'ninguno', 'ninguna', 'ningún', 'ni', 'jamás', 'sin', 'tampoco']),
  nl: new Set(['niet', 'geen', 'nooit', 'niemand', 'niets', 'noch', 'zonder', 'nergens'])
}

// stopwords-iso lists digits and negations for some languages; both carry meaning here.
const STOP: Record<string, Set<string>> = (() => {
  const all = createRequire(import.meta.url)('stopwords-iso') as Record<string, string[]>
  const out: Record<string, Set<string>> = {}
  for (const l of LANGS) out[l] = new Set((all[l] ?? []).filter((w) => !DIGITS.test(w) && !NEGATIONS[l]!.has(w)))
  return out
})()

/** TF-IDF weights of hashed items (words or char n-grams) as bucket -> weight. */
function tfidf (items: string[], idf: Uint8Array, buckets: number): Map<number, number> {
  const m = new Map<number, number>()
  for (const it of items) {
    const b = hash(it) % buckets
    m.set(b, (m.get(b) ?? 0) + 1)
  }
  for (const [b, tf] of m) m.set(b, tf * (idf[b] as number) * IDF_STEP)
  return m
}

function cosine (a: Map<number, number>, b: Map<number, number>): number {
  let dot = 0; let na = 0; let nb = 0
  for (const [k, v] of a) { na += v * v; const w = b.get(k); if (w !== undefined) dot += v * w }
  for (const v of b.values()) nb += v * v
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb)
}

/** The TF-IDF cosine over words alone: the peer the model must beat, and one of its features. */
export function tfidfCosine (a: string, b: string, idf: IdfTable): number {
  return cosine(tfidf(tokens(a), idf.words, WORD_BUCKETS), tfidf(tokens(b), idf.words, WORD_BUCKETS))
}

function jaccard<T> (a: Set<T>, b: Set<T>): number {
  if (a.size === 0 && b.size === 0) return 1
  let inter = 0
  for (const x of a) if (b.has(x)) inter++
  return inter / (a.size + b.size - inter)
}

function lcs (a: string[], b: string[]): number {
  const prev = new Uint16Array(b.length + 1)
  const cur = new Uint16Array(b.length + 1)
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      cur[j] = a[i - 1] === b[j - 1] ? (prev[j - 1] as number) + 1 : Math.max(prev[j] as number, cur[j - 1] as number)
    }
    prev.set(cur)
  }
  return prev[b.length] as number
}

/** Character-trigram Dice of each word with its best partner, IDF-weighted: inflected forms and cognates count. */
function fuzzy (a: number[][], b: number[][], wa: number[]): number {
  let sum = 0; let total = 0
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!
    let best = 0
    for (const y of b) {
      let inter = 0
      for (const g of x) if (y.includes(g)) inter++
      const d = 2 * inter / (x.length + y.length)
      if (d > best) { best = d; if (d === 1) break }
    }
    sum += best * (wa[i] as number)
    total += wa[i] as number
  }
  return total === 0 ? 0 : sum / total
}

function wordTrigrams (w: string): number[] {
  const s = ` ${w} `
  const out: number[] = []
  for (let i = 0; i + 3 <= s.length; i++) out.push(hash(s.slice(i, i + 3)))
  return out
}

const bigrams = (t: string[]) => new Set(t.slice(1).map((w, i) => `${t[i]} ${w}`))
const l1 = (n: number) => Math.log1p(n)

/** One feature vector (FEATURES order) for a pair of texts in a language of LANGS. */
export function pairFeatures (textA: string, textB: string, lang: string, idf: IdfTable, vecs: WordVectors): number[] {
  const a = tokens(textA); const b = tokens(textB)
  const sa = new Set(a); const sb = new Set(b)
  const stop = STOP[lang] ?? STOP.en!
  const neg = NEGATIONS[lang] ?? NEGATIONS.en!
  let inter = 0
  for (const x of sa) if (sb.has(x)) inter++
  const idfOf = (w: string) => (idf.words[hash(w) % WORD_BUCKETS] as number) * IDF_STEP
  let shared = 0; let union = 0
  for (const w of new Set([...sa, ...sb])) {
    const v = idfOf(w)
    union += v
    if (sa.has(w) && sb.has(w)) shared += v
  }
  const nums = (s: Set<string>) => new Set([...s].filter((w) => DIGITS.test(w)))
  const na = nums(sa); const nb = nums(sb)
  const negs = (t: string[]) => t.filter((w) => neg.has(w)).length
  const ga = negs(a); const gb = negs(b)

  const ca = a.slice(0, MAX_ALIGN); const cb = b.slice(0, MAX_ALIGN)
  const l = lcs(ca, cb)
  const ia = ca.map((w) => vectorOf(w, vecs)); const ib = cb.map((w) => vectorOf(w, vecs))
  const wa = ca.map(idfOf); const wb = cb.map(idfOf)
  const ab = align(ca, ia, cb, ib, wa, vecs)
  const ba = align(cb, ib, ca, ia, wb, vecs)
  const covered = ia.filter((i) => i >= 0).length + ib.filter((i) => i >= 0).length
  const content = (t: string[], ix: number[], w: number[]) => {
    const keep = t.map((x) => !stop.has(x))
    return { t: t.filter((_, i) => keep[i]), ix: ix.filter((_, i) => keep[i]), w: w.filter((_, i) => keep[i]) }
  }
  const xa = content(ca, ia, wa); const xb = content(cb, ib, wb)
  const cab = align(xa.t, xa.ix, xb.t, xb.ix, xa.w, vecs).score
  const cba = align(xb.t, xb.ix, xa.t, xa.ix, xb.w, vecs).score
  const ta = xa.t.map(wordTrigrams); const tb = xb.t.map(wordTrigrams)
  const fab = fuzzy(ta, tb, xa.w); const fba = fuzzy(tb, ta, xb.w)

  const f = [
    cosine(tfidf(a, idf.words, WORD_BUCKETS), tfidf(b, idf.words, WORD_BUCKETS)),
    cosine(tfidf(charGrams(a), idf.chars, CHAR_BUCKETS), tfidf(charGrams(b), idf.chars, CHAR_BUCKETS)),
    jaccard(sa, sb),
    sa.size === 0 || sb.size === 0 ? 0 : inter / Math.max(sa.size, sb.size),
    sa.size === 0 || sb.size === 0 ? 0 : inter / Math.min(sa.size, sb.size),
    jaccard(new Set(a.filter((w) => !stop.has(w))), new Set(b.filter((w) => !stop.has(w)))),
    union === 0 ? 0 : shared / union,
    jaccard(new Set(a.map((w) => w.slice(0, 5))), new Set(b.map((w) => w.slice(0, 5)))),
    jaccard(bigrams(a), bigrams(b)),
    ca.length === 0 || cb.length === 0 ? 0 : l / Math.max(ca.length, cb.length),
    ca.length === 0 || cb.length === 0 ? 0 : l / Math.min(ca.length, cb.length),
    na.size > 0 && nb.size > 0 ? 1 : 0,
    na.size > 0 && jaccard(na, nb) === 1 ? 1 : 0,
    na.size + nb.size === 0 ? 1 : jaccard(na, nb),
    (ga > 0) !== (gb > 0) ? 1 : 0,
    ga + gb > 0 ? 1 : 0,
    a.length === 0 || b.length === 0 ? 0 : Math.min(a.length, b.length) / Math.max(a.length, b.length),
    l1(Math.abs(a.length - b.length)),
    l1(Math.min(a.length, b.length)),
    l1(Math.max(a.length, b.length)),
    (ab.score + ba.score) / 2,
    Math.min(ab.score, ba.score),
    (ab.unmatched + ba.unmatched) / 2,
    vcos(meanVector(ia, wa, vecs), meanVector(ib, wb, vecs)),
    ca.length + cb.length === 0 ? 0 : covered / (ca.length + cb.length),
    (cab + cba) / 2,
    Math.min(cab, cba),
    (fab + fba) / 2,
    Math.min(fab, fba),
    ...LANGS.map((l) => (l === lang ? 1 : 0))
  ]
  return f
}

/** Builds hashed IDF tables from the training sentences of one language. */
export function buildIdf (sentences: string[]): IdfTable {
  const wdf = new Uint32Array(WORD_BUCKETS); const cdf = new Uint32Array(CHAR_BUCKETS)
  for (const s of sentences) {
    const t = tokens(s)
    for (const b of new Set(t.map((w) => hash(w) % WORD_BUCKETS))) wdf[b]!++
    for (const b of new Set(charGrams(t).map((g) => hash(g) % CHAR_BUCKETS))) cdf[b]!++
  }
  const q = (df: Uint32Array) => Uint8Array.from(df, (d) => Math.min(255, Math.round((Math.log((sentences.length + 1) / (d + 1)) + 1) / IDF_STEP)))
  return { words: q(wdf), chars: q(cdf) }
}
