// A gated mixture of two fastText-style experts, for a label set whose data come from two domains
// that a single bag of n-grams trades against each other (sarcasm: ironic tweets and satirical
// headlines). Each expert and the gate (which domain does a text look like?) is an embedding bag of
// its own over the same hashed features. The saved TF.js LayersModel keeps them in one embedding
// table, side by side ([expert A | expert B | gate] per row), so serving is unchanged: ids, weights
// -> Embedding -> weighted sum -> two softmax heads and a sigmoid gate g ->
// g * P_A + (1 - g) * P_B. Each head reads only its own columns (the other rows of its kernel are
// zero), and 1 - g is the sigmoid of the negated gate logit, so only standard layers are needed.
import type { TF } from '../lib/tf.js'
import { fileIO } from '../lib/tf-io.js'
import { featurise, type FeatureConfig } from '../lib/text/features.js'
import { forward, train, type Example, type TrainOptions, type Weights } from './fasttext.js'

export interface Mixture { a: Weights, b: Weights, gate: Weights }
export interface ExpertSpec { name: string, examples: Example[], opts: TrainOptions, validate?: (w: Weights) => { name: string, value: number } }

type SymbolicTensor = import('@tensorflow/tfjs').SymbolicTensor

/** Trains expert A, expert B and the gate (label 1: a text of A's domain, 0: of B's). */
export function trainMixture (cfg: FeatureConfig, a: ExpertSpec, b: ExpertSpec, gate: ExpertSpec, validate: (m: Mixture) => { name: string, value: number }): Mixture {
  const none = () => ({ name: 'no validation during this part', value: NaN })
  const log = (s: string) => { if (a.opts.quiet !== true) process.stderr.write(s) }
  log(`expert ${a.name}: ${a.examples.length} rows\n`)
  const wa = train(a.examples, cfg, a.opts, a.validate ?? none)
  log(`expert ${b.name}: ${b.examples.length} rows\n`)
  const wb = train(b.examples, cfg, b.opts, b.validate ?? none)
  log(`gate (${a.name} or ${b.name}): ${gate.examples.length} rows\n`)
  const wg = train(gate.examples, cfg, { ...gate.opts, classes: 2 }, gate.validate ?? none)
  const m = { a: wa, b: wb, gate: wg }
  const v = validate(m)
  log(`  mixture: validation ${v.name} ${v.value.toFixed(4)}\n`)
  return m
}

/** The mixture's probabilities in JS (the saved graph computes the same). */
export function predictMixture (m: Mixture, texts: string[], cfg: FeatureConfig): number[][] {
  const buf = (w: Weights) => ({ h: new Float32Array(w.dim), p: new Float32Array(w.classes) })
  const A = buf(m.a); const B = buf(m.b); const G = buf(m.gate)
  return texts.map((t) => {
    const f = featurise(t, cfg)
    forward(m.a, f.ids, f.weights, A.h, A.p)
    forward(m.b, f.ids, f.weights, B.h, B.p)
    forward(m.gate, f.ids, f.weights, G.h, G.p)
    const g = G.p[1] as number
    return Array.from(A.p, (pa, c) => g * pa + (1 - g) * (B.p[c] as number))
  })
}

/** Saves the mixture as one TF.js LayersModel with one embedding table ('features'). */
export async function saveMixture (tf: TF, m: Mixture, path: string): Promise<void> {
  const { a, b, gate } = m
  if (a.buckets !== b.buckets || a.buckets !== gate.buckets) throw new Error('the experts and the gate must hash into the same buckets')
  if (a.classes !== b.classes || gate.classes !== 2) throw new Error('the experts must share their labels, and the gate must have two classes')
  const classes = a.classes
  const dim = a.dim + b.dim + gate.dim
  const rows = a.buckets
  const E = new Float32Array(rows * dim)
  for (let r = 0; r < rows; r++) {
    E.set(a.E.subarray(r * a.dim, (r + 1) * a.dim), r * dim)
    E.set(b.E.subarray(r * b.dim, (r + 1) * b.dim), r * dim + a.dim)
    E.set(gate.E.subarray(r * gate.dim, (r + 1) * gate.dim), r * dim + a.dim + b.dim)
  }
  // a head's kernel: its expert's weights in its own rows, zero elsewhere
  const head = (w: Weights, from: number) => {
    const K = new Float32Array(dim * classes)
    for (let d = 0; d < w.dim; d++) for (let c = 0; c < classes; c++) K[(from + d) * classes + c] = w.W[d * w.classes + c] as number
    return K
  }
  // the gate logit z = h . (W[:,1] - W[:,0]) + b1 - b0, in both columns (g multiplies both classes)
  const gateKernel = (sign: number) => {
    const K = new Float32Array(dim * classes)
    const from = a.dim + b.dim
    for (let d = 0; d < gate.dim; d++) {
      const v = sign * ((gate.W[d * 2 + 1] as number) - (gate.W[d * 2] as number))
      for (let c = 0; c < classes; c++) K[(from + d) * classes + c] = v
    }
    return K
  }
  const gateBias = (sign: number) => new Float32Array(classes).fill(sign * ((gate.b[1] as number) - (gate.b[0] as number)))

  const ids = tf.input({ shape: [null], dtype: 'int32', name: 'ids' })
  const weights = tf.input({ shape: [null], name: 'weights' })
  const emb = tf.layers.embedding({ inputDim: rows, outputDim: dim, name: 'features' }).apply(ids) as SymbolicTensor
  const w3 = tf.layers.reshape({ targetShape: [-1, 1] }).apply(weights) as SymbolicTensor
  const pooled = tf.layers.dot({ axes: 1, name: 'average' }).apply([emb, w3]) as SymbolicTensor
  const flat = tf.layers.flatten().apply(pooled) as SymbolicTensor
  const pa = tf.layers.dense({ units: classes, activation: 'softmax', name: 'expert_a' }).apply(flat) as SymbolicTensor
  const pb = tf.layers.dense({ units: classes, activation: 'softmax', name: 'expert_b' }).apply(flat) as SymbolicTensor
  const g = tf.layers.dense({ units: classes, activation: 'sigmoid', name: 'gate' }).apply(flat) as SymbolicTensor
  const notG = tf.layers.dense({ units: classes, activation: 'sigmoid', name: 'gate_complement' }).apply(flat) as SymbolicTensor
  const ga = tf.layers.multiply({ name: 'gated_a' }).apply([g, pa]) as SymbolicTensor
  const gb = tf.layers.multiply({ name: 'gated_b' }).apply([notG, pb]) as SymbolicTensor
  const out = tf.layers.add({ name: 'classes' }).apply([ga, gb]) as SymbolicTensor
  const model = tf.model({ inputs: [ids, weights], outputs: out })
  model.getLayer('features').setWeights([tf.tensor2d(E, [rows, dim])])
  model.getLayer('expert_a').setWeights([tf.tensor2d(head(a, 0), [dim, classes]), tf.tensor1d(a.b)])
  model.getLayer('expert_b').setWeights([tf.tensor2d(head(b, a.dim), [dim, classes]), tf.tensor1d(b.b)])
  model.getLayer('gate').setWeights([tf.tensor2d(gateKernel(1), [dim, classes]), tf.tensor1d(gateBias(1))])
  model.getLayer('gate_complement').setWeights([tf.tensor2d(gateKernel(-1), [dim, classes]), tf.tensor1d(gateBias(-1))])
  await model.save(fileIO(path))
  model.dispose()
}
