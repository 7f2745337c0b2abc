// The fastText-style classifier that sparse-sgd.ts trains (TF.js cannot train an embedding layer at a
// usable speed here): its weights, its forward pass, and its export as a TF.js LayersModel:
// ids, weights -> Embedding(buckets, dim) -> weighted sum (Dot) -> [concatenated with the text's
// frozen word-vector mean, when the model reads one] -> Dense(classes, softmax or sigmoid).
// The word-vector part gives the model the meaning of words its training texts never used: every
// word of the shared table (lib/text/words/vectors.ts) lands somewhere the dense layer has learned.
import type { TF } from '../../lib/runtime/tf.js'
import { fileIO } from '../../lib/runtime/tf-io.js'
import { featurise, type FeatureConfig } from '../../lib/text/bag/features.js'
import type { WordVectors } from '../../lib/text/words/vectors.js'
import { inputDim, sentenceInput } from '../../lib/text/bag/sentence-input.js'

export interface Weights {
  E: Float32Array
  W: Float32Array
  b: Float32Array
  dim: number
  classes: number
  buckets: number
  /** word-vector dimensions (0: none) */
  vdim?: number
  /** ReLU units over the word-vector mean (0: the mean goes to the output layer as it is) */
  hidden?: number
  /** [vdim x hidden] and [hidden]: the ReLU layer over the word-vector mean */
  V?: Float32Array
  bv?: Float32Array
  multiLabel?: boolean
}

/** Features of one text: hashed ids with their weights, and the word-vector mean when the model reads one. */
export interface Featurised {
  ids: Int32Array
  weights: Float32Array
  vec?: Float32Array
}

export function featuriseWith (text: string, cfg: FeatureConfig, vectors?: WordVectors): Featurised {
  const f: Featurised = featurise(text, cfg)
  if (vectors !== undefined) {
    f.vec = new Float32Array(inputDim(cfg, vectors))
    sentenceInput(text, cfg, vectors, f.vec)
  }
  return f
}

/** logits into p; h (hiddenWidth) holds the bag and the word-vector part afterwards */
export function logits (
  w: Weights,
  ids: Int32Array,
  weights: Float32Array,
  h: Float32Array,
  p: Float32Array,
  vec?: Float32Array
): void {
  const vdim = w.vdim ?? 0
  const width = hiddenWidth(w)
  h.fill(0)
  for (let k = 0; k < ids.length; k++) {
    const off = (ids[k] as number) * w.dim
    const wk = weights[k] as number
    for (let d = 0; d < w.dim; d++) h[d]! += wk * (w.E[off + d] as number)
  }
  if (vdim > 0 && vec !== undefined) {
    const H = w.hidden ?? 0
    if (H === 0) h.set(vec, w.dim)
    else {
      const V = w.V as Float32Array
      const bv = w.bv as Float32Array
      for (let j = 0; j < H; j++) {
        let z = bv[j] as number
        for (let d = 0; d < vdim; d++) z += (vec[d] as number) * (V[d * H + j] as number)
        h[w.dim + j] = z > 0 ? z : 0
      }
    }
  }
  for (let c = 0; c < w.classes; c++) {
    let z = w.b[c] as number
    for (let d = 0; d < width; d++) z += (h[d] as number) * (w.W[d * w.classes + c] as number)
    p[c] = z
  }
}

export function forward (
  w: Weights,
  ids: Int32Array,
  weights: Float32Array,
  h: Float32Array,
  p: Float32Array,
  vec?: Float32Array
): void {
  logits(w, ids, weights, h, p, vec)
  activate(w, p)
}

function activate (w: Weights, p: Float32Array): void {
  if (w.multiLabel === true) {
    for (let c = 0; c < w.classes; c++) p[c] = 1 / (1 + Math.exp(-(p[c] as number)))
    return
  }
  let max = -Infinity
  for (let c = 0; c < w.classes; c++) if ((p[c] as number) > max) max = p[c] as number
  let sum = 0
  for (let c = 0; c < w.classes; c++) {
    p[c] = Math.exp((p[c] as number) - max)
    sum += p[c] as number
  }
  for (let c = 0; c < w.classes; c++) p[c]! /= sum
}

export const hiddenWidth = (w: Weights) => w.dim + ((w.vdim ?? 0) > 0 ? w.hidden || w.vdim || 0 : 0)

export function predictAll (w: Weights, texts: string[], cfg: FeatureConfig, vectors?: WordVectors): number[][] {
  const h = new Float32Array(hiddenWidth(w))
  const p = new Float32Array(w.classes)
  return texts.map(t => {
    const f = featuriseWith(t, cfg, vectors)
    forward(w, f.ids, f.weights, h, p, f.vec)
    return Array.from(p)
  })
}

/** Raw logits of each text (for fitting a temperature). */
export function logitsAll (w: Weights, texts: string[], cfg: FeatureConfig, vectors?: WordVectors): number[][] {
  const h = new Float32Array(hiddenWidth(w))
  const p = new Float32Array(w.classes)
  return texts.map(t => {
    const f = featuriseWith(t, cfg, vectors)
    logits(w, f.ids, f.weights, h, p, f.vec)
    return Array.from(p)
  })
}

/**
 * Divides the output layer by a temperature and adds a bias per label (calibration): the saved model then gives
 * softmax(z / T + d) or sigmoid(z / T + d).
 */
export function withTemperature (w: Weights, t: number, bias?: number[]): Weights {
  return { ...w, W: w.W.map(x => x / t), b: w.b.map((x, c) => x / t + (bias?.[c] ?? 0)) }
}

type SymbolicTensor = import('@tensorflow/tfjs').SymbolicTensor

/** Saves the weights as a TF.js LayersModel whose graph computes exactly `forward`. */
export async function saveModel (tf: TF, w: Weights, path: string): Promise<void> {
  const ids = tf.input({ shape: [null], dtype: 'int32', name: 'ids' })
  const weights = tf.input({ shape: [null], name: 'weights' })
  const emb = tf.layers
    .embedding({ inputDim: w.buckets, outputDim: w.dim, name: 'features' })
    .apply(ids) as SymbolicTensor
  const w3 = tf.layers.reshape({ targetShape: [-1, 1] }).apply(weights) as SymbolicTensor
  const pooled = tf.layers.dot({ axes: 1, name: 'average' }).apply([emb, w3]) as SymbolicTensor
  const flat = tf.layers.flatten().apply(pooled) as SymbolicTensor
  const vdim = w.vdim ?? 0
  const inputs = [ids, weights]
  let hidden = flat
  const H = vdim > 0 ? (w.hidden ?? 0) : 0
  if (vdim > 0) {
    const vectors = tf.input({ shape: [vdim], name: 'vectors' })
    inputs.push(vectors)
    const meaning =
      H > 0
        ? (tf.layers.dense({ units: H, activation: 'relu', name: 'meaning' }).apply(vectors) as SymbolicTensor)
        : vectors
    hidden = tf.layers.concatenate({ axis: -1, name: 'hidden' }).apply([flat, meaning]) as SymbolicTensor
  }
  const out = tf.layers
    .dense({ units: w.classes, activation: w.multiLabel === true ? 'sigmoid' : 'softmax', name: 'classes' })
    .apply(hidden) as SymbolicTensor
  const model = tf.model({ inputs, outputs: out })
  model.getLayer('features').setWeights([tf.tensor2d(w.E, [w.buckets, w.dim])])
  if (H > 0) {
    model
      .getLayer('meaning')
      .setWeights([tf.tensor2d(w.V as Float32Array, [vdim, H]), tf.tensor1d(w.bv as Float32Array)])
  }
  model.getLayer('classes').setWeights([tf.tensor2d(w.W, [hiddenWidth(w), w.classes]), tf.tensor1d(w.b)])
  await model.save(fileIO(path))
  model.dispose()
}
