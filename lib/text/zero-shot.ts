// Zero-shot text classification for /v4/custom_classifier (manifest kind zero-shot): the caller's
// labels (and, from older clients, keywords per label) are compared with the text in the shared
// word-vector space (lib/text/word-vectors.ts), so no training per request. Each text word is
// compared with each label's vector (the SIF-weighted mean of its name's words and its keywords);
// a label's score is the SIF-weighted mean, over the text's known words, of that similarity,
// and the scores become probabilities by a softmax at a fixed temperature (docs/models/custom_classifier.md).
import type { LoadedModel, ModelLoader } from '../models.js'
import { loadSharedVectors, vectorWords, type WordVectors } from './word-vectors.js'

export interface ZeroShotLabel { name: string, keywords: string[] }
export interface ZeroShotInput { text: string, labels: ZeroShotLabel[] }
export type ZeroShotOutput = number[] | { unknown: number[] }
export interface ZeroShotSettings { temperature: number, /** weight of the label's own name against its keywords */ nameWeight: number, /** subtract each label's similarity to text in general */ common: boolean }

const MAX_WORDS = 2000
const COMMON_ROWS = 50_000

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
    w.fill(0)
    v.addRow(r, 1, w)
    const norm = Math.hypot(...w)
    if (norm === 0) continue
    const weight = v.sif(r) / (r + 1)
    total += weight
    for (let d = 0; d < v.dim; d++) c[d] = (c[d] as number) + weight * (w[d] as number) / norm
  }
  for (let d = 0; d < v.dim; d++) c[d] = (c[d] as number) / total
  commonCache.set(v, c)
  return c
}

/** The unit vector of a label: its name's words and its keywords' words, SIF-weighted; null when none is known. */
export function labelVector (v: WordVectors, label: ZeroShotLabel, s: ZeroShotSettings): Float32Array | null {
  const out = new Float32Array(v.dim)
  const name = new Float32Array(v.dim)
  const kw = new Float32Array(v.dim)
  const n = v.sentence(vectorWords(label.name), name)
  const k = label.keywords.length === 0 ? 0 : v.sentence(label.keywords.flatMap((w) => vectorWords(w)), kw)
  if (n === 0 && k === 0) return null
  const wn = n === 0 ? 0 : (k === 0 ? 1 : s.nameWeight)
  const wk = k === 0 ? 0 : 1 - wn
  for (let d = 0; d < v.dim; d++) out[d] = wn * (name[d] as number) + wk * (kw[d] as number)
  const norm = Math.hypot(...out) || 1
  for (let d = 0; d < v.dim; d++) out[d] = (out[d] as number) / norm
  return out
}

/** Probabilities of the labels for a text (uniform when no word of the text is known). */
export function zeroShot (v: WordVectors, input: ZeroShotInput, s: ZeroShotSettings): number[] {
  const labels = input.labels.map((l) => labelVector(v, l, s))
  const sums = new Float64Array(labels.length)
  const w = new Float32Array(v.dim)
  let total = 0
  for (const word of vectorWords(input.text).slice(0, MAX_WORDS)) {
    const r = v.row(word)
    if (r < 0) continue
    w.fill(0)
    v.addRow(r, 1, w)
    const norm = Math.hypot(...w)
    if (norm === 0) continue
    const weight = v.sif(r)
    total += weight
    labels.forEach((l, i) => {
      if (l === null) return
      let dot = 0
      for (let d = 0; d < v.dim; d++) dot += (w[d] as number) * (l[d] as number)
      sums[i]! += weight * dot / norm
    })
  }
  const c = common(v)
  const base = (l: Float32Array) => { let dot = 0; for (let d = 0; d < v.dim; d++) dot += (l[d] as number) * (c[d] as number); return dot }
  const z = labels.map((l, i) => (l === null || total === 0 ? 0 : ((sums[i] as number) / total - (s.common ? base(l) : 0)) / s.temperature))
  const max = Math.max(...z)
  const e = z.map((x) => Math.exp(x - max))
  const sum = e.reduce((a, b) => a + b, 0)
  return e.map((x) => x / sum)
}

export const loadZeroShot: ModelLoader = async (dir, manifest) => {
  const m = manifest as typeof manifest & { vectors: string, settings: ZeroShotSettings }
  const v = await loadSharedVectors(dir, m.vectors)
  return {
    manifest,
    // labels of which no word is known cannot be scored: their indexes come back instead
    async predict (inputs: ZeroShotInput[]) {
      return inputs.map((i) => {
        const unknown = i.labels.flatMap((l, k) => (labelVector(v, l, m.settings) === null ? [k] : []))
        return unknown.length > 0 ? { unknown } : zeroShot(v, i, m.settings)
      })
    },
    async warm () { await this.predict([{ text: 'the match ended in a draw', labels: [{ name: 'sports', keywords: [] }, { name: 'business', keywords: [] }] }]) },
    dispose () {}
  } satisfies LoadedModel<ZeroShotInput, ZeroShotOutput>
}
