// A head: a small dense network over the encoder's sentence vector (one layer, or one hidden layer
// with ReLU), its logits divided by a fitted temperature, then a softmax over the labels or, for
// independent labels, a sigmoid each. Weights are float32, row-major [out, in], then the biases.
export interface HeadLayer {
  in: number
  out: number
  relu: boolean
}

/** head.json: the layers, the temperature, and softmax or independent (sigmoid) scores */
export interface HeadSpec {
  layers: HeadLayer[]
  temperature: number
  multiLabel: boolean
}

export class Head {
  constructor (
    readonly spec: HeadSpec,
    private readonly weights: Float32Array[]
  ) {
    if (weights.length !== spec.layers.length) throw new Error('a head needs one weight array per layer')
    spec.layers.forEach((l, i) => {
      if ((weights[i] as Float32Array).length !== l.out * l.in + l.out) throw new Error(`head layer ${i}: wrong size`)
    })
  }

  /** Reads a head from its spec and the float32 weights of every layer, one after the other. */
  static fromBytes (spec: HeadSpec, bytes: Uint8Array): Head {
    const all = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
    let at = 0
    const weights = spec.layers.map(l => {
      const n = l.out * l.in + l.out
      const w = all.subarray(at, at + n)
      at += n
      return w
    })
    if (at !== all.length) throw new Error(`head weights: ${all.length} floats, the layers take ${at}`)
    return new Head(spec, weights)
  }

  /** The logits before the temperature. */
  logits (x: Float32Array): Float32Array {
    let h = x
    this.spec.layers.forEach((l, i) => {
      h = dense(h, this.weights[i] as Float32Array, l)
    })
    return h
  }

  /** Calibrated scores, one per label. */
  scores (x: Float32Array): number[] {
    const z = Array.from(this.logits(x), v => v / this.spec.temperature)
    return this.spec.multiLabel ? z.map(sigmoid) : softmax(z)
  }
}

/** One layer: w [out, in] row-major then the biases, ReLU when the layer has it (the trainer's forward pass too). */
export function dense (x: Float32Array, w: Float32Array, l: HeadLayer): Float32Array {
  const y = new Float32Array(l.out)
  const bias = l.out * l.in
  for (let o = 0; o < l.out; o++) {
    let s = w[bias + o] as number
    const row = o * l.in
    for (let i = 0; i < l.in; i++) s += (w[row + i] as number) * (x[i] as number)
    y[o] = l.relu && s < 0 ? 0 : s
  }
  return y
}

export function softmax (z: number[]): number[] {
  const max = Math.max(...z)
  const e = z.map(v => Math.exp(v - max))
  const sum = e.reduce((a, b) => a + b, 0)
  return e.map(v => v / sum)
}

export function sigmoid (v: number): number {
  return 1 / (1 + Math.exp(-v))
}
