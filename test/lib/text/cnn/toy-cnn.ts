// The word-order classifier tests' toy model: a small random text-cnn (n-gram bag, learned rows, optional
// projection and word-vector input) and its logits computed the plain way, from the kernels as stored.
import { join } from 'node:path'
import { sequenceIds, type SequenceConfig } from '../../../../lib/text/cnn/tokens.js'
import { cnnTensors, type CnnWeightsJson } from '../../../../lib/text/cnn/classifier.js'
import { featureIds, type FeatureConfig } from '../../../../lib/text/bag/features.js'
import { vectorWords, type WordVectors } from '../../../../lib/text/words/vectors.js'
import { negatedWords } from '../../../../lib/text/bag/sentence-input.js'

export const STORE = join(import.meta.dirname, '..', '..', '..', '..', 'model-store')
export const VECTORS = join(STORE, 'word-vectors', '1')
export const SEQ: SequenceConfig = { maxChars: 2000, maxTokens: 128, oovBuckets: 16 }

/** float16 bits of a number (test weights are multiples of 1/64, exact in float16) */
function toHalf (x: number): number {
  const f = new Float32Array([x])
  const b = new Uint32Array(f.buffer)[0] as number
  if (x === 0) return 0
  return ((b >>> 16) & 0x8000) | ((((b >>> 23) & 0xff) - 112) << 10) | ((b & 0x7fffff) >>> 13)
}

/**
 * a small random model: n-gram bag, learned rows, optional projection, the given widths, optionally the
 * word-vector input through `mean` ReLU units
 */
export function toyModel (
  wv: WordVectors,
  widths: number[],
  proj: number,
  seed: number,
  mean = 0
): { cfg: CnnWeightsJson; bytes: Uint8Array } {
  let s = seed
  const rand = () => {
    s = (s * 1103515245 + 12345) % 2147483648
    return Math.round((s / 2147483648 - 0.5) * 64) / 64
  }
  const bag: FeatureConfig = { buckets: 512, charNgrams: [3, 4], wordBigrams: true, maxFeatures: 300, maxChars: 2000 }
  const F = 3
  const dim = 4
  const D = wv.dim
  const R = proj || D
  const tensors: CnnWeightsJson['tensors'] = []
  const parts: Uint8Array[] = []
  const add = (name: string, shape: number[], dtype: 'float16' | 'float32') => {
    const n = shape.reduce((a, b) => a * b, 1)
    const v = Array.from({ length: n }, rand)
    parts.push(
      dtype === 'float16'
        ? new Uint8Array(Uint16Array.from(v, toHalf).buffer)
        : new Uint8Array(Float32Array.from(v).buffer)
    )
    tensors.push({ name, shape, dtype })
  }
  add('bag', [bag.buckets, dim], 'float16')
  add('oov', [SEQ.oovBuckets, D], 'float16')
  if (proj > 0) add('proj.kernel', [proj, D], 'float32')
  for (const k of widths) {
    add(`conv${k}.kernel`, [F, R, k], 'float32')
    add(`conv${k}.bias`, [F], 'float32')
  }
  const meanFeatures: FeatureConfig = { ...bag, vectors: 'word-vectors/1', negatedVectors: true }
  if (mean > 0) {
    add('mean.kernel', [mean, 2 * D], 'float32')
    add('mean.bias', [mean], 'float32')
  }
  add('out.kernel', [3, dim + F * widths.length + mean], 'float32')
  add('out.bias', [3], 'float32')
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  parts.reduce((at, p) => {
    bytes.set(p, at)
    return at + p.length
  }, 0)
  return {
    cfg: {
      bag,
      sequence: SEQ,
      vectors: 'word-vectors/1',
      vectorScale: 0.2,
      filters: F,
      widths,
      ...(mean > 0 ? { mean: { features: meanFeatures, hidden: mean } } : {}),
      tensors
    },
    bytes
  }
}

/** the same model's logits, computed the plain way: every window of every width from the kernels as stored */
export function plainLogits (cfg: CnnWeightsJson, bytes: Uint8Array, wv: WordVectors, text: string): number[] {
  const tensors = cnnTensors(cfg, bytes)
  const half = (h: number) => {
    const s = h & 0x8000 ? -1 : 1
    const e = (h >> 10) & 0x1f
    const f = h & 0x3ff
    return e === 0 ? s * f * 2 ** -24 : s * (1 + f / 1024) * 2 ** (e - 15)
  }
  const val = (name: string) => {
    const t = tensors.get(name)!
    return t.values instanceof Uint16Array ? Array.from(t.values, half) : Array.from(t.values)
  }
  const bagT = val('bag')
  const dim = tensors.get('bag')!.shape[1]!
  const ids = new Int32Array(cfg.bag!.maxFeatures)
  const n = featureIds(text, cfg.bag!, ids)
  const h: number[] = new Array(dim).fill(0)
  for (let k = 0; k < n; k++) for (let d = 0; d < dim; d++) h[d]! += bagT[ids[k]! * dim + d]! / n
  const toks = new Int32Array(SEQ.maxTokens)
  const m = sequenceIds(text, cfg.sequence, wv.row, wv.size, toks)
  const D = wv.dim
  const oov = val('oov')
  let xs = Array.from(toks.slice(0, m), id => {
    if (id >= wv.size) return oov.slice((id - wv.size) * D, (id - wv.size + 1) * D)
    const x = new Float64Array(D)
    wv.addRow(id, cfg.vectorScale, x)
    return Array.from(x)
  })
  if (tensors.has('proj.kernel')) {
    const P = val('proj.kernel')
    const R = tensors.get('proj.kernel')!.shape[0]!
    xs = xs.map(x => Array.from({ length: R }, (_, r) => x.reduce((a, v, d) => a + v * P[r * D + d]!, 0)))
  }
  const R = tensors.get('proj.kernel')?.shape[0] ?? D
  for (const k of cfg.widths) {
    const W = val(`conv${k}.kernel`)
    const b = val(`conv${k}.bias`)
    for (let f = 0; f < cfg.filters; f++) {
      let best = 0
      for (let t = 0; t <= Math.max(m - k, 0); t++) {
        let z = b[f]!
        for (let j = 0; j < k; j++) {
          for (let r = 0; r < R; r++) z += (t + j < m ? xs[t + j]![r]! : 0) * W[(f * R + r) * k + j]!
        }
        best = Math.max(best, z)
      }
      h.push(best)
    }
  }
  if (cfg.mean !== undefined) {
    // the word-vector input (with negatedVectors: the mean of all words, then of the negated ones), written out here
    const x = new Float32Array(2 * D)
    wv.sentence(vectorWords(text, cfg.mean.features.maxChars), x.subarray(0, D))
    wv.sentence(negatedWords(text, cfg.mean.features.maxChars), x.subarray(D))
    const W = val('mean.kernel')
    const b = val('mean.bias')
    for (let j = 0; j < cfg.mean.hidden; j++) {
      h.push(
        Math.max(
          0,
          x.reduce((a, v, d) => a + v * W[j * 2 * D + d]!, b[j]!)
        )
      )
    }
  }
  const K = val('out.kernel')
  const B = val('out.bias')
  return B.map((b, c) => h.reduce((a, v, d) => a + v * K[c * h.length + d]!, b))
}
