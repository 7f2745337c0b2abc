// The serving side of the word-order text classifiers (manifest kind text-cnn), a forward pass in
// plain TypeScript over the weights it loads (no TensorFlow.js: every step is a small loop):
//   a hashed n-gram embedding bag (lib/text/bag/features.ts; the mean of its float16 rows), as the
//   text-classifier models have, and beside it
//   a 1-D convolution over the text's tokens (lib/text/cnn/tokens.ts): each token is its row of the
//   shared word-vector table (frozen, times `vectorScale`) or a float16 row learned for the tokens
//   the table lacks; optionally projected to fewer dimensions by a linear map (each row's projection
//   is computed once per thread, when a text first uses it); one filter bank per width, ReLU, the
//   maximum over positions;
//   optionally the text's word-vector input (lib/text/bag/sentence-input.ts: the SIF-weighted mean of its word
//   vectors, as the text-classifier models read it) through a layer of ReLU units;
//   their concatenation into one logit per label, and a softmax (or, for independent scores, a sigmoid
//   per label).
// A model whose weights.json has `parts` reads a long text in parts, the mean of their logits (lib/text/cnn/parts.ts).
// The convolution (lib/text/cnn/convolution.ts) is computed per token first: every token's vector times one
// [dim x (filters x sum of widths)] matrix gives what it adds to each window it is in, and a window's value is
// the sum of its tokens' parts. A text is scored alone (a batch is a loop), so a text alone equals itself in a
// batch exactly. training/trainers/text_cnn.py trains these models; test/lib/text/cnn/classifier.test.ts
// checks this pass against the trainer's own outputs, saved with the model (reference.json).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LoadedModel, ModelLoader } from '../../serving/loaded-model.js'
import { featureIds, type FeatureConfig } from '../bag/features.js'
import { loadSharedVectors, type WordVectors } from '../words/vectors.js'
import { readFileShared, shared, type SharedArray } from '../pool/shared-memory.js'
import { halves } from '../pool/shared-tables.js'
import { inputCalibrationOf, inputShape, recalibrate } from '../calibration.js'
import { meanOfParts, textParts } from './parts.js'
import { meanPart, type CnnGetter, type CnnPart } from './inputs.js'
import { convPart } from './convolution.js'
import type { CnnWeightsJson } from './weights-json.js'

export type { CnnWeightsJson, CnnTensor } from './weights-json.js'

const BYTES = { float16: 2, float32: 4 }
/**
 * a batch hands the event loop back once this much of its work has run (a text costs 0.01-20 ms: long texts
 * read in parts cost the most)
 */
const YIELD_MS = 15

/** The features a text's shape for the calibration by input (lib/text/calibration.ts inputShape) is read
 * with: the n-gram bag's, or for a model without one, only the sequence's character limit; and the
 * shared word-vector table. */
export function shapeConfig (cfg: CnnWeightsJson): FeatureConfig {
  return {
    ...(cfg.bag ?? {
      buckets: 1,
      charNgrams: [],
      wordBigrams: false,
      maxFeatures: 1,
      maxChars: cfg.sequence.maxChars
    }),
    vectors: cfg.vectors
  }
}

/** weights.bin, read once per process for every text worker (lib/text/pool/shared-memory.ts). */
export async function shareCnnClassifier (dir: string): Promise<Record<string, SharedArray>> {
  return { weights: await readFileShared(join(dir, 'weights.bin')) }
}

/** The tensors of weights.bin by name: float16 ones as their bits (views of `bytes`), float32 ones decoded. */
export function cnnTensors (
  cfg: CnnWeightsJson,
  bytes: Uint8Array
): Map<string, { shape: number[]; values: Uint16Array | Float32Array }> {
  const out = new Map<string, { shape: number[]; values: Uint16Array | Float32Array }>()
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let at = 0
  for (const t of cfg.tensors) {
    const n = t.shape.reduce((a, b) => a * b, 1)
    const size = n * BYTES[t.dtype]
    if (at + size > bytes.byteLength) throw new Error(`weights.bin ends inside ${t.name}`)
    if (t.dtype === 'float16') {
      if ((bytes.byteOffset + at) % 2 !== 0) throw new Error(`${t.name} is not 2-byte aligned`)
      out.set(t.name, { shape: t.shape, values: new Uint16Array(bytes.buffer, bytes.byteOffset + at, n) })
    } else {
      const values = new Float32Array(n)
      for (let i = 0; i < n; i++) values[i] = view.getFloat32(at + 4 * i, true)
      out.set(t.name, { shape: t.shape, values })
    }
    at += size
  }
  if (at !== bytes.byteLength) throw new Error(`weights.bin has ${bytes.byteLength} bytes, weights.json names ${at}`)
  return out
}

/** A text's label logits: the model's forward pass (the loader's predict applies the softmax). */
export type CnnForward = (text: string) => Float64Array
type Tensors = ReturnType<typeof cnnTensors>

/** The forward pass of a text-cnn model from its configuration, tensors and the word-vector table. */
export function cnnForward (cfg: CnnWeightsJson, tensors: Tensors, vectors: WordVectors): CnnForward {
  const get: CnnGetter = (name, dtype) => {
    const t = tensors.get(name)
    if (t === undefined || (dtype === 'float16') !== t.values instanceof Uint16Array) {
      throw new Error(`weights: no ${dtype} tensor ${name}`)
    }
    return t
  }
  const bag = cfg.bag === undefined ? null : bagPart(cfg.bag, get)
  const conv = cfg.widths.length === 0 ? null : convPart(cfg, get, vectors)
  const mean = cfg.mean === undefined ? null : meanPart(cfg.mean, get, vectors)
  const dim = bag?.width ?? 0
  const convAt = dim
  const meanAt = convAt + (conv?.width ?? 0)
  const width = meanAt + (mean?.width ?? 0)
  const outK = get('out.kernel', 'float32')
  const outB = get('out.bias', 'float32').values
  const labels = outK.shape[0] as number
  if (outK.shape[1] !== width || outB.length !== labels) {
    throw new Error(`out.kernel is ${outK.shape.join(' x ')}, the features are ${width} wide`)
  }
  const h = new Float64Array(width)
  const K = outK.values
  // the hot loops read what they capture into locals first: once several models share this code (each
  // worker loads several), V8 no longer bakes one model's captured values into it, and a captured
  // value read inside a loop is read again on every turn
  return text => {
    const H = h
    const W = width
    const Kc = K
    const Bc = outB
    bag?.run(text, H, 0)
    conv?.run(text, H, convAt)
    mean?.run(text, H, meanAt)
    const z = new Float64Array(labels)
    for (let c = 0; c < labels; c++) {
      let s = Bc[c] as number
      for (let d = 0, at = c * W; d < W; d++, at++) s += (H[d] as number) * (Kc[at] as number)
      z[c] = s
    }
    return z
  }
}

/** the mean of the float16 rows of the text's hashed n-grams (zeros for a text without any) */
function bagPart (features: FeatureConfig, get: CnnGetter): { width: number; run: CnnPart } {
  const lut = halves()
  const bag = get('bag', 'float16')
  const table = bag.values as Uint16Array
  const dim = bag.shape[1] as number
  if (bag.shape[0] !== features.buckets) {
    throw new Error(`the bag has ${bag.shape[0]} rows for ${features.buckets} buckets`)
  }
  const ids = new Int32Array(Math.max(1, features.maxFeatures))
  return {
    width: dim,
    run: (text, h, at) => {
      const D = dim
      const T = table
      const L = lut
      const I = ids
      h.fill(0, at, at + D)
      const n = featureIds(text, features, I)
      for (let k = 0; k < n; k++) {
        const row = (I[k] as number) * D
        for (let d = 0; d < D; d++) h[at + d] = (h[at + d] as number) + (L[T[row + d] as number] as number)
      }
      // every feature weighs 1/n, as the trainer's EmbeddingBag was given
      if (n > 0) {
        const w = Math.fround(1 / n)
        for (let d = 0; d < D; d++) h[at + d] = (h[at + d] as number) * w
      }
    }
  }
}

/** softmax of a text's logits */
export function softmax (z: Float64Array): number[] {
  let max = -Infinity
  for (const v of z) if (v > max) max = v
  const e = Array.from(z, v => Math.exp(v - max))
  const sum = e.reduce((a, b) => a + b, 0)
  return e.map(v => v / sum)
}

/** a text's scores from its logits: the softmax, or for a model of independent scores a sigmoid per label */
export function cnnScores (z: Float64Array, output: CnnWeightsJson['output']): number[] {
  return output === 'sigmoid' ? Array.from(z, v => 1 / (1 + Math.exp(-v))) : softmax(z)
}

export const loadCnnClassifier: ModelLoader = async (dir, manifest) => {
  const cfg = JSON.parse(await readFile(join(dir, 'weights.json'), 'utf8')) as CnnWeightsJson
  const bytes = await shared(
    dir,
    'weights',
    Uint8Array,
    async () => new Uint8Array(await readFile(join(dir, 'weights.bin')))
  )
  const vectors = await loadSharedVectors(dir, cfg.vectors)
  const forward = cnnForward(cfg, cnnTensors(cfg, bytes), vectors)
  const labels = cfg.tensors.find(t => t.name === 'out.kernel')?.shape[0]
  if (labels !== manifest.labels.length) {
    throw new Error(`${dir}: ${labels} outputs for ${manifest.labels.length} labels`)
  }
  // calibration by input (lib/text/calibration.ts), when the manifest has it: each text's scores are
  // rescaled by a temperature of its own (its token count and share of words with a word vector)
  const byInput = inputCalibrationOf(manifest)
  if (byInput !== undefined && byInput.bias.length !== labels) {
    throw new Error(`${dir}: the calibration by input has ${byInput.bias.length} label biases for ${labels} labels`)
  }
  const shape = shapeConfig(cfg)
  const multi = cfg.output === 'sigmoid'
  const loaded: LoadedModel<string, number[]> = {
    manifest,
    predict: async texts => {
      const out: number[][] = []
      let since = performance.now()
      for (let i = 0; i < texts.length; i++) {
        if (performance.now() - since >= YIELD_MS) {
          await new Promise<void>(resolve => setImmediate(resolve))
          since = performance.now()
        }
        // a long text read in parts: its parts are found once, for the pass and for the calibration
        const text = texts[i] as string
        const parts = cfg.parts === undefined ? undefined : textParts(text, cfg.parts)
        const p = cnnScores(parts === undefined ? forward(text) : meanOfParts(forward, parts), cfg.output)
        out.push(
          byInput === undefined ? p : recalibrate(p, inputShape(text, shape, vectors, parts?.length), byInput, multi)
        )
      }
      return out
    },
    dispose: () => {}
  }
  return loaded
}
