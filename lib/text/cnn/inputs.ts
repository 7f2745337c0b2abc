// The inputs of the word-order classifier's parts (lib/text/cnn/classifier.ts): what its convolution
// reads for each token, and its word-vector input through a layer of ReLU units.
import type { WordVectors } from '../words/vectors.js'
import { halves } from '../pool/shared-tables.js'
import { inputDim, negatedWords } from '../bag/sentence-input.js'
import { vectorWords } from '../words/vectors.js'
import type { CnnWeightsJson } from './weights-json.js'

/** a tensor of weights.bin by name, of the given type (throws when it is missing or of another type) */
export type CnnGetter = (
  name: string,
  dtype: 'float16' | 'float32'
) => { shape: number[]; values: Uint16Array | Float32Array }
/** writes a part of the features of `text` into h from `at` */
export type CnnPart = (text: string, h: Float64Array, at: number) => void

/**
 * the per-word parts (lib/text/cnn/classifier.ts's convolution, and the word-vector input below) of this many
 * most frequent words (the table's first rows) are kept once computed
 */
export const CACHED_WORDS = 10_000
/**
 * and those of other tokens, for the last one seen in each of this many slots (a token's slot: its id modulo
 * this); the word-vector input's take at most 4 x (CACHED_WORDS + this) x hidden x (1 or 2) bytes
 */
export const RARE_SLOTS = 4096

/**
 * the text's word-vector input (lib/text/bag/sentence-input.ts) through a layer of ReLU units. The input
 * is the L2-normalised SIF-weighted sum s of the text's word vectors (and that of its negated words),
 * so the kernel's product with it is the weighted sum of the kernel's products with each word's
 * vector, divided by |s|: each word's product is computed once per thread (for the most frequent
 * words) and a text costs a sum over its words, not a [hidden x input] product.
 */
export function meanPart (
  mean: NonNullable<CnnWeightsJson['mean']>,
  get: CnnGetter,
  vectors: WordVectors
): { width: number; run: CnnPart } {
  const kernel = get('mean.kernel', 'float32')
  const b = get('mean.bias', 'float32').values
  const D = inputDim(mean.features, vectors)
  const H = mean.hidden
  if (kernel.shape.join() !== [H, D].join() || b.length !== H) {
    throw new Error(`mean.kernel is ${kernel.shape.join(' x ')}, not ${H} x ${D}`)
  }
  const V = vectors.dim
  // the input's groups: every word, and the negated words when the features ask for them
  const groups = D / V
  const partOf = wordParts(kernel.values, H, D, groups, vectors)
  const s = new Float64Array(V)
  const acc = new Float64Array(H)
  const out = new Float64Array(H)
  /** adds group g's contribution of these words to out: (kernel . s) / |s|, nothing when no word is known */
  const group = (words: readonly string[], g: number) => {
    const Hc = H
    const Vc = V
    const S = s
    const A = acc
    S.fill(0)
    A.fill(0)
    for (const w of words) {
      const r = vectors.row(w)
      if (r < 0) continue
      const weight = vectors.sif(r)
      vectors.addRow(r, weight, S)
      const p = partOf(r, g)
      for (let j = 0; j < Hc; j++) A[j] = (A[j] as number) + weight * (p[j] as number)
    }
    let norm = 0
    for (let d = 0; d < Vc; d++) norm += (S[d] as number) ** 2
    if (norm === 0) return
    const k = 1 / Math.sqrt(norm)
    for (let j = 0; j < Hc; j++) out[j] = (out[j] as number) + (A[j] as number) * k
  }
  return {
    width: H,
    run: (text, h, at) => {
      const Hc = H
      const Bc = b
      const O = out
      O.fill(0)
      group(vectorWords(text, mean.features.maxChars), 0)
      if (groups === 2) group(negatedWords(text, mean.features.maxChars), 1)
      for (let j = 0; j < Hc; j++) {
        const x = (Bc[j] as number) + (O[j] as number)
        h[at + j] = x > 0 ? x : 0
      }
    }
  }
}

/**
 * group g's columns of the kernel K [H x D] times a row's vector, for the word-vector input (meanPart above),
 * kept for the most frequent words and for the last rarer word seen in each slot
 */
function wordParts (
  K: Float32Array | Uint16Array,
  H: number,
  D: number,
  groups: number,
  vectors: WordVectors
): (row: number, g: number) => Float32Array {
  const V = vectors.dim
  const common = Math.min(CACHED_WORDS, vectors.size)
  // parts[(g * common + row) * H + j]: kernel row j's product with the row's vector, group g's
  // columns; then those of rarer words, the last one seen in each slot (g * RARE_SLOTS + row modulo RARE_SLOTS)
  const rareAt = groups * common
  const parts = new Float32Array((rareAt + groups * RARE_SLOTS) * H)
  const cached = new Uint8Array(groups * common)
  const rareRow = new Int32Array(groups * RARE_SLOTS).fill(-1)
  const v = new Float64Array(V)
  /**
   * group g's columns of the kernel times a row's vector (as float32 values, however long they are kept, so
   * that a text's answer never depends on which texts came before)
   */
  return (row: number, g: number): Float32Array => {
    const Hc = H
    const Vc = V
    const Dc = D
    const Kc = K
    const rare = row < common ? -1 : g * RARE_SLOTS + (row % RARE_SLOTS)
    const slot = rare < 0 ? g * common + row : rareAt + rare
    const into = parts.subarray(slot * Hc, (slot + 1) * Hc)
    if (rare < 0 ? cached[slot] === 1 : rareRow[rare] === row) return into
    v.fill(0)
    vectors.addRow(row, 1, v)
    for (let j = 0; j < Hc; j++) {
      let x = 0
      for (let d = 0, m = j * Dc + g * Vc; d < Vc; d++, m++) x += (v[d] as number) * (Kc[m] as number)
      into[j] = x
    }
    if (rare < 0) cached[slot] = 1
    else rareRow[rare] = row
    return into
  }
}

/**
 * what the convolution reads for a token id: its word vector (times vectorScale) or learned row, projected when
 * the model has proj.kernel
 */
export function tokenInput (
  cfg: CnnWeightsJson,
  get: CnnGetter,
  vectors: WordVectors
): { width: number; of: (id: number) => Float64Array } {
  const lut = halves()
  const D = vectors.dim
  const oov = get('oov', 'float16')
  const table = oov.values as Uint16Array
  if (oov.shape[0] !== cfg.sequence.oovBuckets || oov.shape[1] !== D) {
    throw new Error(`the oov table is ${oov.shape.join(' x ')}, not ${cfg.sequence.oovBuckets} x ${D}`)
  }
  const x = new Float64Array(D)
  const vectorOf = (id: number) => {
    x.fill(0)
    if (id < vectors.size) vectors.addRow(id, cfg.vectorScale, x)
    else for (let d = 0, at = (id - vectors.size) * D; d < D; d++, at++) x[d] = lut[table[at] as number] as number
    return x
  }
  const proj = cfg.tensors.some(t => t.name === 'proj.kernel') ? get('proj.kernel', 'float32') : undefined
  if (proj === undefined) return { width: D, of: vectorOf }
  if (proj.shape[1] !== D) throw new Error(`proj.kernel is ${proj.shape.join(' x ')}, the vectors have ${D} dimensions`)
  const R = proj.shape[0] as number
  const P = proj.values
  // each row's projection, made when a text first uses it: the pages of rows never used stay unallocated
  const rows = vectors.size + cfg.sequence.oovBuckets
  const projected = new Float32Array(rows * R)
  const done = new Uint8Array(rows)
  const u = new Float64Array(R)
  return {
    width: R,
    of: id => {
      const at = id * R
      if (done[id] === 0) {
        vectorOf(id)
        for (let r = 0, m = 0; r < R; r++) {
          let s = 0
          for (let d = 0; d < D; d++, m++) s += (x[d] as number) * (P[m] as number)
          projected[at + r] = s
        }
        done[id] = 1
      }
      for (let r = 0; r < R; r++) u[r] = projected[at + r] as number
      return u
    }
  }
}
