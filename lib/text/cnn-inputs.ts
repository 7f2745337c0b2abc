// The inputs of the word-order classifier's parts (lib/text/cnn-classifier.ts): what its convolution
// reads for each token, and its word-vector input through a layer of ReLU units.
import type { WordVectors } from './word-vectors.js'
import { halves } from './shared-tables.js'
import { inputDim, sentenceInput } from './sentence-input.js'
import type { CnnConfig } from './cnn-classifier.js'

/** a tensor of weights.bin by name, of the given type (throws when it is missing or of another type) */
export type CnnGetter = (name: string, dtype: 'float16' | 'float32') => { shape: number[], values: Uint16Array | Float32Array }
/** writes a part of the features of `text` into h from `at` */
export type CnnPart = (text: string, h: Float64Array, at: number) => void

/** the text's word-vector input through a layer of ReLU units */
export function meanPart (mean: NonNullable<CnnConfig['mean']>, get: CnnGetter, vectors: WordVectors): { width: number, run: CnnPart } {
  const kernel = get('mean.kernel', 'float32')
  const b = get('mean.bias', 'float32').values
  const D = inputDim(mean.features, vectors)
  const H = mean.hidden
  if (kernel.shape.join() !== [H, D].join() || b.length !== H) throw new Error(`mean.kernel is ${kernel.shape.join(' x ')}, not ${H} x ${D}`)
  const K = kernel.values
  const x = new Float32Array(D)
  return {
    width: H,
    run: (text, h, at) => {
      sentenceInput(text, mean.features, vectors, x)
      const X = x; const Kc = K; const Bc = b; const Hc = H; const Dc = D
      for (let j = 0, m = 0; j < Hc; j++) {
        let s = Bc[j] as number
        for (let d = 0; d < Dc; d++, m++) s += (X[d] as number) * (Kc[m] as number)
        h[at + j] = s > 0 ? s : 0
      }
    }
  }
}

/** what the convolution reads for a token id: its word vector (times vectorScale) or learned row, projected when the model has proj.kernel */
export function tokenInput (cfg: CnnConfig, get: CnnGetter, vectors: WordVectors): { width: number, of: (id: number) => Float64Array } {
  const lut = halves()
  const D = vectors.dim
  const oov = get('oov', 'float16')
  const table = oov.values as Uint16Array
  if (oov.shape[0] !== cfg.sequence.oovBuckets || oov.shape[1] !== D) throw new Error(`the oov table is ${oov.shape.join(' x ')}, not ${cfg.sequence.oovBuckets} x ${D}`)
  const x = new Float64Array(D)
  const vectorOf = (id: number) => {
    x.fill(0)
    if (id < vectors.size) vectors.addRow(id, cfg.vectorScale, x)
    else for (let d = 0, at = (id - vectors.size) * D; d < D; d++, at++) x[d] = lut[table[at] as number] as number
    return x
  }
  const proj = cfg.tensors.some((t) => t.name === 'proj.kernel') ? get('proj.kernel', 'float32') : undefined
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
    of: (id) => {
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
