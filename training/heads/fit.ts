// Training a head: a dense network over fixed sentence vectors (lib/text/heads/head.ts), by Adam
// on the weighted cross-entropy (softmax), or on a binary cross-entropy per label for independent
// labels, where a row of label -1 is negative for every label. Seeded, so a run repeats exactly.
import { dense, type HeadLayer } from '../../lib/text/heads/head.js'
import { rng } from '../trainers/sparse-sgd.js'

export interface FitOptions {
  hidden: number
  epochs: number
  lr: number
  l2: number
  batch: number
  seed: number
  multiLabel: boolean
}

export interface Fitted {
  layers: HeadLayer[]
  weights: Float32Array[]
}

export function fitHead (x: Float32Array[], y: number[], w: number[], classes: number, o: FitOptions): Fitted {
  const rand = rng(o.seed)
  const dims = (x[0] as Float32Array).length
  const layers: HeadLayer[] =
    o.hidden > 0
      ? [
          { in: dims, out: o.hidden, relu: true },
          { in: o.hidden, out: classes, relu: false }
        ]
      : [{ in: dims, out: classes, relu: false }]
  const weights = layers.map(l => {
    const a = new Float32Array(l.out * l.in + l.out)
    const scale = Math.sqrt(2 / (l.in + l.out))
    for (let i = 0; i < l.out * l.in; i++) a[i] = (rand() * 2 - 1) * scale * Math.sqrt(3)
    return a
  })
  const m = weights.map(a => new Float32Array(a.length))
  const v = weights.map(a => new Float32Array(a.length))
  const grads = weights.map(a => new Float32Array(a.length))
  const order = x.map((_, i) => i)
  let step = 0
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1))
      const t = order[i] as number
      order[i] = order[j] as number
      order[j] = t
    }
    const lr = o.lr * (1 - epoch / o.epochs)
    for (let at = 0; at < order.length; at += o.batch) {
      const idx = order.slice(at, at + o.batch)
      for (const g of grads) g.fill(0)
      let total = 0
      for (const i of idx) total += w[i] as number
      for (const i of idx) {
        const share = (w[i] as number) / total
        backward(x[i] as Float32Array, y[i] as number, share, layers, weights, grads, o.multiLabel)
      }
      step++
      adam(weights, grads, m, v, step, lr, o.l2, layers)
    }
  }
  return { layers, weights }
}

function backward (
  x: Float32Array,
  y: number,
  weight: number,
  layers: HeadLayer[],
  ws: Float32Array[],
  gs: Float32Array[],
  multi: boolean
): void {
  const acts: Float32Array[] = [x]
  layers.forEach((l, k) => acts.push(dense(acts[k] as Float32Array, ws[k] as Float32Array, l)))
  const z = acts[layers.length] as Float32Array
  let delta = new Float32Array(z.length)
  if (multi) {
    for (let c = 0; c < z.length; c++) delta[c] = weight * (1 / (1 + Math.exp(-(z[c] as number))) - (c === y ? 1 : 0))
  } else {
    let max = -Infinity
    for (const v of z) max = Math.max(max, v)
    let sum = 0
    for (let c = 0; c < z.length; c++) sum += Math.exp((z[c] as number) - max)
    for (let c = 0; c < z.length; c++) delta[c] = weight * (Math.exp((z[c] as number) - max) / sum - (c === y ? 1 : 0))
  }
  for (let k = layers.length - 1; k >= 0; k--) {
    const l = layers[k] as HeadLayer
    const input = acts[k] as Float32Array
    const g = gs[k] as Float32Array
    const wk = ws[k] as Float32Array
    const back = new Float32Array(l.in)
    for (let o = 0; o < l.out; o++) {
      const d = delta[o] as number
      if (d === 0) continue
      g[l.out * l.in + o] = (g[l.out * l.in + o] as number) + d
      const row = o * l.in
      for (let i = 0; i < l.in; i++) {
        g[row + i] = (g[row + i] as number) + d * (input[i] as number)
        back[i] = (back[i] as number) + d * (wk[row + i] as number)
      }
    }
    if (k === 0) break
    const below = layers[k - 1] as HeadLayer
    if (below.relu) for (let i = 0; i < l.in; i++) if ((input[i] as number) <= 0) back[i] = 0
    delta = back
  }
}

function adam (
  ws: Float32Array[],
  gs: Float32Array[],
  ms: Float32Array[],
  vs: Float32Array[],
  step: number,
  lr: number,
  l2: number,
  layers: HeadLayer[]
): void {
  const b1 = 0.9
  const b2 = 0.999
  const c1 = 1 - b1 ** step
  const c2 = 1 - b2 ** step
  ws.forEach((w, k) => {
    const g = gs[k] as Float32Array
    const m = ms[k] as Float32Array
    const v = vs[k] as Float32Array
    const l = layers[k] as HeadLayer
    const weightsEnd = l.out * l.in
    for (let i = 0; i < w.length; i++) {
      const gi = (g[i] as number) + (i < weightsEnd ? l2 * (w[i] as number) : 0)
      m[i] = b1 * (m[i] as number) + (1 - b1) * gi
      v[i] = b2 * (v[i] as number) + (1 - b2) * gi * gi
      w[i] = (w[i] as number) - (lr * ((m[i] as number) / c1)) / (Math.sqrt((v[i] as number) / c2) + 1e-8)
    }
  })
}
