// A fastText-style classifier (embedding-bag.ts) trained with a sparse SGD loop of our own (TF.js cannot
// train an embedding layer at a usable speed here): a linearly decaying learning rate, class balance over
// the weighted rows, softmax or one-vs-rest sigmoid loss, and the seeded generator that makes it reproducible.
import type { FeatureConfig } from '../../lib/text/bag/features.js'
import type { WordVectors } from '../../lib/text/words/vectors.js'
import { inputDim } from '../../lib/text/bag/sentence-input.js'
import { featuriseWith, forward, hiddenWidth, type Featurised, type Weights } from './embedding-bag.js'

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

function bar (done: number, total: number): string {
  const n = Math.round((20 * done) / total)
  return '[' + '#'.repeat(n) + '.'.repeat(20 - n) + ']'
}

/** A training row: its features, its label (-1: a multi-label negative) and its sample weight. */
type Row = Featurised & { label: number; weight: number }

/** The buffers every training step reuses. */
interface Scratch {
  h: Float32Array
  p: Float32Array
  g: Float32Array
  dh: Float32Array
  du: Float32Array
}

/** The weights before training: embedding rows random but row 0 (padding), the ReLU layer's He-style. */
function initWeights (cfg: FeatureConfig, opts: TrainOptions, vdim: number, rand: () => number): Weights {
  const { dim, classes } = opts
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
  return w
}

/**
 * Each class's loss weight: class balance over the weighted rows (a class of few but heavy rows is not rare),
 * at most 10x; 1 without balance.
 */
function classWeights (examples: Example[], classes: number, balance: boolean): number[] {
  const counts = new Array<number>(classes).fill(0)
  let mass = 0
  for (const e of examples) {
    mass += e.weight ?? 1
    if (e.label >= 0) counts[e.label]! += e.weight ?? 1
  }
  return counts.map(c => (balance ? Math.min(10, mass / (classes * Math.max(1e-9, c))) : 1))
}

/**
 * The forward pass of one row; s.g gets the gradient at the logits. Returns loss plus the row's loss (c0 its
 * weight).
 */
function lossGradient (w: Weights, ex: Row, s: Scratch, c0: number, loss: number): number {
  const { p, g } = s
  const classes = w.classes
  forward(w, ex.ids, ex.weights, s.h, p, ex.vec)
  if (w.multiLabel === true) {
    for (let c = 0; c < classes; c++) {
      const y = c === ex.label ? 1 : 0
      loss += -Math.log(Math.max(1e-9, y === 1 ? (p[c] as number) : 1 - (p[c] as number))) * c0
      g[c] = ((p[c] as number) - y) * c0
    }
  } else {
    loss += -Math.log(Math.max(1e-9, p[ex.label] as number)) * c0
    for (let c = 0; c < classes; c++) g[c] = ((p[c] as number) - (c === ex.label ? 1 : 0)) * c0
  }
  return loss
}

/**
 * Backpropagates s.g at learning rate lr: the output layer (with l2), the ReLU layer over the word-vector mean,
 * the output biases and the embedding rows of the row's features.
 */
function backward (w: Weights, ex: Row, s: Scratch, lr: number, l2: number): void {
  const { dim, classes } = w
  const H = w.hidden ?? 0
  const vdim = w.vdim ?? 0
  const width = hiddenWidth(w)
  const { h, g, dh, du } = s
  dh.fill(0)
  for (let d = 0; d < width; d++) {
    const hd = h[d] as number
    for (let c = 0; c < classes; c++) {
      const idx = d * classes + c
      if (d < dim || H > 0) dh[d]! += (w.W[idx] as number) * (g[c] as number)
      w.W[idx]! -= lr * (hd * (g[c] as number) + l2 * (w.W[idx] as number))
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
    const rate = lr * (ex.weights[k] as number)
    for (let d = 0; d < dim; d++) w.E[off + d]! -= rate * (dh[d] as number)
  }
}

export function trainSparseSgd (
  examples: Example[],
  cfg: FeatureConfig,
  opts: TrainOptions,
  validate: (w: Weights) => { name: string; value: number },
  vectors?: WordVectors
): Weights {
  const rand = rng(opts.seed)
  const { classes } = opts
  const vdim = vectors === undefined ? 0 : inputDim(cfg, vectors)
  const w = initWeights(cfg, opts, vdim, rand)
  const width = hiddenWidth(w)
  const feats = examples.map(e => ({ ...featuriseWith(e.text, cfg, vectors), label: e.label, weight: e.weight ?? 1 }))
  const cw = classWeights(examples, classes, opts.balance)
  const s: Scratch = {
    h: new Float32Array(width),
    p: new Float32Array(classes),
    g: new Float32Array(classes),
    dh: new Float32Array(width),
    du: new Float32Array(w.hidden ?? 0)
  }
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
      // class balance: a multi-label negative (label -1) weighs 1
      const c0 = (ex.label >= 0 ? (cw[ex.label] as number) : 1) * ex.weight
      loss = lossGradient(w, ex, s, c0, loss)
      backward(w, ex, s, lr, opts.l2 ?? 0)
      if (n % 2000 === 0 && opts.quiet !== true) {
        process.stderr.write(
          `\r  epoch ${epoch}/${opts.epochs} ${bar(n, order.length)} loss ${(loss / (n + 1)).toFixed(4)}`
        )
      }
    }
    const v = validate(w)
    if (opts.quiet !== true) {
      process.stderr.write(
        `\r  epoch ${epoch}/${opts.epochs} ${bar(1, 1)} loss ${(loss / order.length).toFixed(4)}  ` +
          `validation ${v.name} ${v.value.toFixed(4)}  (${((performance.now() - t0) / 1000).toFixed(1)} s)\n`
      )
    }
  }
  return w
}
