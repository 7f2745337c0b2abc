// A fastText-style classifier trained with a sparse SGD loop of our own (TF.js cannot train an
// embedding layer at a usable speed here), exported as a TF.js LayersModel:
// ids, weights -> Embedding(buckets, dim) -> weighted sum (Dot) -> [concatenated with the text's
// frozen word-vector mean, when the model reads one] -> Dense(classes, softmax or sigmoid).
// The word-vector part gives the model the meaning of words its training texts never used: every
// word of the shared table (lib/text/words/vectors.ts) lands somewhere the dense layer has learned.
import type { TF } from '../../lib/runtime/tf.js'
import { fileIO } from '../../lib/runtime/tf-io.js'
import { featurise, type FeatureConfig } from '../../lib/text/bag/features.js'
import type { WordVectors } from '../../lib/text/words/vectors.js'
import { inputDim, sentenceInput } from '../../lib/text/bag/sentence-input.js'

/** label: the class (softmax), or with multiLabel, the one positive class (-1: none of them) */
export interface Example {
  text: string
  label: number
  /** sample weight (domain balance), default 1 */ weight?: number
}
export interface TrainOptions {
  dim: number
  epochs: number
  lr: number
  seed: number
  balance: boolean
  classes: number
  l2?: number
  /** no progress on stderr */
  quiet?: boolean
  /** independent sigmoid per class (one-vs-rest) instead of a softmax */
  multiLabel?: boolean
  /** ReLU units over the word-vector mean (0 or absent: the mean itself) */
  hidden?: number
}
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

/** mulberry32: a small seeded generator, so training is reproducible */
export function rng (seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function shuffle<T> (xs: T[], rand: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1))
    ;[xs[i], xs[j]] = [xs[j] as T, xs[i] as T]
  }
  return xs
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

function bar (done: number, total: number): string {
  const n = Math.round((20 * done) / total)
  return '[' + '#'.repeat(n) + '.'.repeat(20 - n) + ']'
}

export function train (
  examples: Example[],
  cfg: FeatureConfig,
  opts: TrainOptions,
  validate: (w: Weights) => { name: string; value: number },
  vectors?: WordVectors
): Weights {
  const rand = rng(opts.seed)
  const { dim, classes } = opts
  const vdim = vectors === undefined ? 0 : inputDim(cfg, vectors)
  const H = vdim > 0 ? (opts.hidden ?? 0) : 0
  const multi = opts.multiLabel === true
  const w: Weights = {
    E: new Float32Array(cfg.buckets * dim),
    W: new Float32Array(0),
    b: new Float32Array(classes),
    dim,
    classes,
    buckets: cfg.buckets,
    vdim,
    hidden: H,
    multiLabel: multi
  }
  const width = hiddenWidth(w)
  w.W = new Float32Array(width * classes)
  for (let i = dim; i < w.E.length; i++) w.E[i] = (rand() * 2 - 1) / dim // row 0 (padding) stays zero
  if (H > 0) {
    // He-style uniform init for the ReLU layer; the output weights of its units start small
    w.V = new Float32Array(vdim * H).map(() => (rand() * 2 - 1) * Math.sqrt(6 / vdim))
    w.bv = new Float32Array(H).fill(0.01)
    for (let i = dim * classes; i < w.W.length; i++) w.W[i] = (rand() * 2 - 1) * 0.01
  }
  const du = new Float32Array(H)
  const feats = examples.map(e => ({ ...featuriseWith(e.text, cfg, vectors), label: e.label, weight: e.weight ?? 1 }))
  // class balance over the weighted rows (a class of few but heavy rows is not rare), at most 10x
  const counts = new Array<number>(classes).fill(0)
  let mass = 0
  for (const e of examples) {
    mass += e.weight ?? 1
    if (e.label >= 0) counts[e.label]! += e.weight ?? 1
  }
  const cw = counts.map(c => (opts.balance ? Math.min(10, mass / (classes * Math.max(1e-9, c))) : 1))
  const h = new Float32Array(width)
  const p = new Float32Array(classes)
  const g = new Float32Array(classes)
  const dh = new Float32Array(width)
  const total = opts.epochs * feats.length
  let step = 0
  const order = feats.map((_, i) => i)
  for (let epoch = 1; epoch <= opts.epochs; epoch++) {
    shuffle(order, rand)
    let loss = 0
    const t0 = performance.now()
    for (let n = 0; n < order.length; n++) {
      const ex = feats[order[n] as number]!
      const lr = opts.lr * (1 - step++ / total)
      forward(w, ex.ids, ex.weights, h, p, ex.vec)
      // class balance: a multi-label negative (label -1) weighs 1
      const c0 = (ex.label >= 0 ? (cw[ex.label] as number) : 1) * ex.weight
      if (multi) {
        for (let c = 0; c < classes; c++) {
          const y = c === ex.label ? 1 : 0
          loss += -Math.log(Math.max(1e-9, y === 1 ? (p[c] as number) : 1 - (p[c] as number))) * c0
          g[c] = ((p[c] as number) - y) * c0
        }
      } else {
        loss += -Math.log(Math.max(1e-9, p[ex.label] as number)) * c0
        for (let c = 0; c < classes; c++) g[c] = ((p[c] as number) - (c === ex.label ? 1 : 0)) * c0
      }
      dh.fill(0)
      for (let d = 0; d < width; d++) {
        const hd = h[d] as number
        for (let c = 0; c < classes; c++) {
          const idx = d * classes + c
          if (d < dim || H > 0) dh[d]! += (w.W[idx] as number) * (g[c] as number)
          w.W[idx]! -= lr * (hd * (g[c] as number) + (opts.l2 ?? 0) * (w.W[idx] as number))
        }
      }
      if (H > 0 && ex.vec !== undefined) {
        const V = w.V as Float32Array
        const bv = w.bv as Float32Array
        for (let j = 0; j < H; j++) du[j] = (h[dim + j] as number) > 0 ? (dh[dim + j] as number) : 0
        for (let d = 0; d < vdim; d++) {
          const x = lr * (ex.vec[d] as number)
          if (x === 0) continue
          for (let j = 0; j < H; j++) V[d * H + j]! -= x * (du[j] as number)
        }
        for (let j = 0; j < H; j++) bv[j]! -= lr * (du[j] as number)
      }
      for (let c = 0; c < classes; c++) w.b[c]! -= lr * (g[c] as number)
      for (let k = 0; k < ex.ids.length; k++) {
        const off = (ex.ids[k] as number) * dim
        const s = lr * (ex.weights[k] as number)
        for (let d = 0; d < dim; d++) w.E[off + d]! -= s * (dh[d] as number)
      }
      if (n % 2000 === 0 && opts.quiet !== true) {
        process.stderr.write(
          `\r  epoch ${epoch}/${opts.epochs} ${bar(n, order.length)} loss ${(loss / (n + 1)).toFixed(4)}`
        )
      }
    }
    const v = validate(w)
    if (opts.quiet !== true) {
      process.stderr.write(
        `\r  epoch ${epoch}/${opts.epochs} ${bar(1, 1)} loss ${(loss / order.length).toFixed(4)}  validation ${v.name} ${v.value.toFixed(4)}  (${((performance.now() - t0) / 1000).toFixed(1)} s)\n`
      )
    }
  }
  return w
}

/** Divides the output layer by a temperature and adds a bias per label (calibration): the saved model then gives softmax(z / T + d) or sigmoid(z / T + d). */
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
