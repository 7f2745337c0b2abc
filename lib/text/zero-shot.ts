// Zero-shot text classification for /v4/custom_classifier (manifest kind zero-shot): the caller's
// labels (and, from older clients, keywords per label) are compared with the text in the shared
// word-vector space (lib/text/words/vectors.ts), so no training per request.
// A label's vector is its name's vector plus its nearest neighbours in the table (a bare name such as
// "World" or "Sci/Tech" says little; its neighbours say what texts about it contain), or, when the
// caller gave keywords, its name plus its keywords. Each word of the text then votes for the labels
// by a softmax of its similarities to them (minus each label's similarity to text in general), and
// the SIF-weighted vote shares, sharpened, are the probabilities (docs/models/custom_classifier.md).
import type { LoadedModel, ModelLoader } from '../serving/loaded-model.js'
import { loadSharedVectors, vectorWords, type WordVectors } from './words/vectors.js'

export interface ZeroShotLabel {
  name: string
  keywords: string[]
}
export interface ZeroShotInput {
  text: string
  labels: ZeroShotLabel[]
}
export type ZeroShotOutput = number[] | { unknown: number[] }
export interface ZeroShotSettings {
  /** how many nearest neighbours of a bare label name join its vector (0: the name alone) */
  neighbours: number
  /** neighbours are searched among this many most frequent words of the table */
  neighbourPool: number
  /** softmax temperature of each word's vote between the labels */
  wordTemperature: number
  /** probabilities are the vote shares to this power, renormalised */
  sharpness: number
  /** subtract each label's similarity to text in general */
  common: boolean
}

const MAX_WORDS = 2000
const COMMON_ROWS = 50_000
/** label vectors kept per table (a label costs a scan of neighbourPool rows the first time) */
const LABEL_CACHE = 4096

/** the unit vector of a row into out; false for a zero row */
function unitRow (v: WordVectors, row: number, out: Float32Array): boolean {
  out.fill(0)
  v.addRow(row, 1, out)
  let n = 0
  for (let d = 0; d < v.dim; d++) n += (out[d] as number) ** 2
  if (n === 0) return false
  const k = 1 / Math.sqrt(n)
  for (let d = 0; d < v.dim; d++) out[d] = (out[d] as number) * k
  return true
}

function dot (a: Float32Array, b: Float32Array): number {
  let s = 0
  for (let d = 0; d < a.length; d++) s += (a[d] as number) * (b[d] as number)
  return s
}

function normalise (x: Float32Array): Float32Array {
  const n = Math.sqrt(dot(x, x)) || 1
  for (let d = 0; d < x.length; d++) x[d] = (x[d] as number) / n
  return x
}

const commonCache = new WeakMap<WordVectors, Float32Array>()
/** What a label's score would be for text in general: the frequency- and SIF-weighted mean of the
 * unit vectors of the COMMON_ROWS most frequent words. A label is scored by how much more the text
 * resembles it than text in general does (without this, labels near everyday words win often). */
function common (v: WordVectors): Float32Array {
  let c = commonCache.get(v)
  if (c !== undefined) return c
  c = new Float32Array(v.dim)
  const w = new Float32Array(v.dim)
  let total = 0
  for (let r = 0; r < Math.min(v.size, COMMON_ROWS); r++) {
    if (!unitRow(v, r, w)) continue
    const weight = v.sif(r) / (r + 1)
    total += weight
    for (let d = 0; d < v.dim; d++) c[d] = (c[d] as number) + weight * (w[d] as number)
  }
  for (let d = 0; d < v.dim; d++) c[d] = (c[d] as number) / total
  commonCache.set(v, c)
  return c
}

/** the SIF-weighted unit vector of some words, or null when none is known */
function phrase (v: WordVectors, words: string[]): Float32Array | null {
  const out = new Float32Array(v.dim)
  return v.sentence(words, out) === 0 ? null : out
}

const normCache = new WeakMap<WordVectors, Float32Array>()
/** 1 / the length of each of the first `rows` rows (0 for a zero row): 4 bytes a row, made once per table */
function inverseNorms (v: WordVectors, rows: number): Float32Array {
  const n = Math.min(v.size, rows)
  let inv = normCache.get(v)
  if (inv !== undefined && inv.length >= n) return inv.subarray(0, n)
  inv = new Float32Array(n)
  const w = new Float32Array(v.dim)
  for (let r = 0; r < n; r++) {
    w.fill(0)
    v.addRow(r, 1, w)
    const len = Math.sqrt(dot(w, w))
    inv[r] = len === 0 ? 0 : 1 / len
  }
  normCache.set(v, inv)
  return inv
}

/**
 * The rows of the `k` words nearest to a unit vector among the `pool` most frequent, best first,
 * leaving out the rows in `skip` (the label's own words, already in its vector).
 */
export function nearestRows (
  v: WordVectors,
  to: Float32Array,
  k: number,
  pool: number,
  skip: ReadonlySet<number> = new Set()
): Array<{ row: number; similarity: number }> {
  const best: Array<{ row: number; similarity: number }> = []
  if (k <= 0) return best
  const w = new Float32Array(v.dim)
  const inv = inverseNorms(v, pool)
  for (let r = 0; r < inv.length; r++) {
    if (skip.has(r) || inv[r] === 0) continue
    w.fill(0)
    v.addRow(r, inv[r] as number, w)
    const s = dot(w, to)
    if (best.length === k && s <= (best[k - 1] as { similarity: number }).similarity) continue
    let at = best.length === k ? k - 1 : best.length
    if (best.length === k) best.pop()
    while (at > 0 && (best[at - 1] as { similarity: number }).similarity < s) at--
    best.splice(at, 0, { row: r, similarity: s })
  }
  return best
}

interface LabelVector {
  vector: Float32Array
  expansion: number[]
}
const labelCache = new WeakMap<WordVectors, Map<string, LabelVector | null>>()

/**
 * A label's unit vector and the rows its name was expanded with (null when no word of it is known).
 * A bare name: the name's vector plus, with equal weight each, the unit vectors of its `neighbours`
 * nearest words. With keywords: the name's vector and each keyword's, with equal weight (the caller's
 * keywords say more than the table's neighbours). Cached per label and settings, a bounded number.
 */
export function labelVector (v: WordVectors, label: ZeroShotLabel, s: ZeroShotSettings): LabelVector | null {
  let cache = labelCache.get(v)
  if (cache === undefined) {
    cache = new Map()
    labelCache.set(v, cache)
  }
  const key = [s.neighbours, s.neighbourPool, label.name, ...label.keywords].join('\u0000')
  const hit = cache.get(key)
  if (hit !== undefined) return hit
  const words = vectorWords(label.name)
  const parts = [phrase(v, words), ...label.keywords.map(k => phrase(v, vectorWords(k)))].filter(p => p !== null)
  let out: LabelVector | null = null
  if (parts.length > 0) {
    const vector = new Float32Array(v.dim)
    for (const p of parts) for (let d = 0; d < v.dim; d++) vector[d] = (vector[d] as number) + (p[d] as number)
    const expansion: number[] = []
    const name = parts[0] as Float32Array
    if (label.keywords.length === 0 && s.neighbours > 0) {
      const own = new Set(words.map(w => v.row(w)).filter(r => r >= 0))
      const w = new Float32Array(v.dim)
      for (const n of nearestRows(v, name, s.neighbours, s.neighbourPool, own)) {
        unitRow(v, n.row, w)
        for (let d = 0; d < v.dim; d++) vector[d] = (vector[d] as number) + (w[d] as number)
        expansion.push(n.row)
      }
    }
    out = { vector: normalise(vector), expansion }
  }
  if (cache.size >= LABEL_CACHE) cache.delete(cache.keys().next().value as string)
  cache.set(key, out)
  return out
}

/** Probabilities of the labels for a text (uniform when no word of the text is known). */
export function zeroShot (v: WordVectors, input: ZeroShotInput, s: ZeroShotSettings): number[] {
  const labels = input.labels.map(l => labelVector(v, l, s)?.vector ?? null)
  const c = common(v)
  const base = labels.map(l => (l === null ? 0 : s.common ? dot(l, c) : 0))
  const votes = new Float64Array(labels.length)
  const w = new Float32Array(v.dim)
  const z = new Float64Array(labels.length)
  let total = 0
  for (const word of vectorWords(input.text).slice(0, MAX_WORDS)) {
    const r = v.row(word)
    if (r < 0 || !unitRow(v, r, w)) continue
    // each word splits its SIF weight between the labels by a softmax of its similarities to them
    let max = -Infinity
    labels.forEach((l, i) => {
      z[i] = l === null ? -Infinity : (dot(w, l) - (base[i] as number)) / s.wordTemperature
      max = Math.max(max, z[i] as number)
    })
    if (max === -Infinity) break
    let sum = 0
    for (let i = 0; i < labels.length; i++) {
      z[i] = Math.exp((z[i] as number) - max)
      sum += z[i] as number
    }
    const weight = v.sif(r)
    total += weight
    for (let i = 0; i < labels.length; i++) votes[i] = (votes[i] as number) + (weight * (z[i] as number)) / sum
  }
  if (total === 0) return labels.map(() => 1 / labels.length)
  const p = Array.from(votes, x => (x / total) ** s.sharpness)
  const sum = p.reduce((a, b) => a + b, 0)
  return p.map(x => x / sum)
}

export const loadZeroShot: ModelLoader = async (dir, manifest) => {
  const m = manifest as typeof manifest & { vectors: string; settings: ZeroShotSettings }
  const v = await loadSharedVectors(dir, m.vectors)
  return {
    manifest,
    // labels of which no word is known cannot be scored: their indexes come back instead
    async predict (inputs: ZeroShotInput[]) {
      return inputs.map(i => {
        const unknown = i.labels.flatMap((l, k) => (labelVector(v, l, m.settings) === null ? [k] : []))
        return unknown.length > 0 ? { unknown } : zeroShot(v, i, m.settings)
      })
    },
    async warm () {
      await this.predict([
        {
          text: 'the match ended in a draw',
          labels: [
            { name: 'sports', keywords: [] },
            { name: 'business', keywords: [] }
          ]
        }
      ])
    },
    dispose () {}
  } satisfies LoadedModel<ZeroShotInput, ZeroShotOutput>
}
