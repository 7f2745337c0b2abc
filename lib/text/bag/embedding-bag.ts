// The forward pass of a text classifier (lib/text/bag/classifier.ts) with its embedding bag done in JS:
// the layers of the embedding-bag architecture found in the TF.js model, the mean of each text's feature
// rows summed here from a copy of the table, and the layers after the sum run as the TF.js ops they are.
import { featureIds, type FeatureConfig } from './features.js'
import type { WordVectors } from '../words/vectors.js'
import { inputDim, sentenceVectors } from './sentence-input.js'
import { halves } from '../pool/shared-tables.js'
import type { TF } from '../../runtime/tf.js'

type Tensor = import('@tensorflow/tfjs').Tensor
type Tensor2D = import('@tensorflow/tfjs').Tensor2D
type LayersModel = import('@tensorflow/tfjs').LayersModel

type Layer = LayersModel['layers'][number]

/** the layers that read layer `l` */
const readers = (model: LayersModel, l: unknown) =>
  model.layers.filter(x => x.inboundNodes[0]?.inboundLayers.includes(l as never))

/**
 * The layers of the embedding-bag architecture (embeddingBag below): the embedding of the ids input, the
 * weighted sum of its rows (a Dot layer of it and the weights input reshaped), the word-vector input when the
 * model reads one, and the one output; null for another architecture.
 */
function bagLayers (
  model: LayersModel,
  vectors: WordVectors | undefined
): {
  embedding: Layer
  idsInput: Layer
  weightsInput: Layer
  vectorsInput: Layer | undefined
  reshape: Layer
  average: Layer
  output: Layer
} | null {
  const embedding = model.getLayer('features')
  const idsInput = embedding.inboundNodes[0]?.inboundLayers[0]
  // the word-vector mean, when the model reads one, is its third input (ids, weights, vectors: layer
  // names get suffixes when several models load in one thread, so the order is what identifies it)
  const vectorsInput = vectors === undefined || model.inputLayers.length !== 3 ? undefined : model.inputLayers[2]
  if ((vectors === undefined) !== (vectorsInput === undefined)) return null
  const rest = model.inputLayers.filter(l => l !== idsInput && l !== vectorsInput)
  const output = model.outputLayers[0]
  if (
    embedding.getClassName() !== 'Embedding' ||
    idsInput === undefined ||
    model.inputLayers[0] !== idsInput ||
    rest.length !== 1 ||
    model.outputLayers.length !== 1 ||
    output === undefined ||
    model.layers.some(l => l.inboundNodes.length > 1)
  ) {
    return null
  }
  const weightsInput = rest[0]!
  // the weighted sum: Dot(axes 1) of the embedding and the weights reshaped to [texts, features, 1]
  const average = model.layers.find(
    l => l.getClassName() === 'Dot' && l.inboundNodes[0]?.inboundLayers[0] === embedding
  )
  const reshape = average?.inboundNodes[0]?.inboundLayers[1]
  const dotAxes = (average?.getConfig() as { axes?: unknown } | undefined)?.axes
  if (
    average === undefined ||
    reshape === undefined ||
    reshape.getClassName() !== 'Reshape' ||
    reshape.inboundNodes[0]?.inboundLayers[0] !== weightsInput ||
    !['[-1,1]', '[null,1]'].includes(JSON.stringify((reshape.getConfig() as { targetShape?: unknown }).targetShape)) ||
    (dotAxes !== 1 && JSON.stringify(dotAxes) !== '[1,1]')
  ) {
    return null
  }
  // nothing but the sum may read the embedding or the weights
  if (
    readers(model, embedding).length !== 1 ||
    readers(model, weightsInput).length !== 1 ||
    readers(model, reshape).length !== 1
  ) {
    return null
  }
  return { embedding, idsInput, weightsInput, vectorsInput, reshape, average, output }
}

/**
 * The model's forward pass with the embedding bag done in JS: each text's feature ids are hashed
 * into a reused buffer and the mean of their rows (every feature weighs 1/count, as featurise
 * gives it: the 'average' Dot layer's output) is summed here from a copy of the table; the layers
 * after it run as TF.js ops (asOps). tf.gather and the [texts x features x dim] activations it
 * builds cost most of a batch's time (2 s for 1000 long texts), and for one short text the kernels
 * of the embedding, reshape and dot layers cost more than the sum itself. The sums are taken in
 * double precision, so results may differ from model.predict's float32 in the last bits
 * (test/lib/text/models.test.ts compares them for every model in model-store). Null, and
 * model.predict is used, for another architecture.
 */
export function embeddingBag (
  tf: TF,
  model: LayersModel,
  cfg: FeatureConfig,
  vectors?: WordVectors,
  shared?: { values: Float32Array | Uint16Array; rows: number }
): ((texts: string[]) => Tensor) | null {
  const layers = bagLayers(model, vectors)
  if (layers === null) return null
  const { embedding, idsInput, weightsInput, vectorsInput, reshape, average, output } = layers
  const [w] = embedding.getWeights()
  if (w === undefined || w.shape.length !== 2) return null
  // the process's shared copy when the registry made one (the text workers; TF.js then holds a
  // one-row stub), else one of its own
  const dim = w.shape[1] as number
  const rows = shared?.rows ?? (w.shape[0] as number)
  if (shared !== undefined && shared.values.length !== rows * dim) {
    throw new Error(`the shared embedding table has ${shared.values.length} values, not ${rows} x ${dim}`)
  }
  const table = shared?.values ?? (w.dataSync() as Float32Array)
  // a float16 table is read through the value of each bit pattern (exact: the same float32s)
  const half = table instanceof Uint16Array ? halves() : null
  // the JS copy is the one read from now on: the backend's copy (16 MB for 131,072 x 32) is freed,
  // since nothing runs the embedding layer (model.predict is only for the architectures refused
  // above); the layer forgets the variable, so that disposing the model does not dispose it twice
  const [variable] = embedding.weights
  ;(embedding as unknown as { _trainableWeights: unknown[] })._trainableWeights = []
  variable?.dispose()
  const skip = new Set<unknown>([idsInput, weightsInput, vectorsInput, embedding, reshape, average])
  const after = model.layers.filter(l => !skip.has(l))
  const steps = after.map(l => [l, asOps(tf, l)] as const)
  const flat = readers(model, average).every(l => l.getClassName() === 'Flatten')
  const acc = new Float64Array(dim)
  const ids = new Int32Array(Math.max(1, cfg.maxFeatures))
  return texts => {
    const n = texts.length
    const sums = new Float32Array(n * dim)
    for (let i = 0; i < n; i++) {
      const count = featureIds(texts[i] as string, cfg, ids)
      if (count === 0) continue
      acc.fill(0)
      for (let k = 0; k < count; k++) {
        const id = ids[k] as number
        if (id < 0 || id >= rows) throw new Error(`feature id ${id} is outside the embedding table (${rows} rows)`)
        if (half === null) {
          for (let d = 0, at = id * dim; d < dim; d++, at++) acc[d] = (acc[d] as number) + (table[at] as number)
        } else {
          for (let d = 0, at = id * dim; d < dim; d++, at++) {
            acc[d] = (acc[d] as number) + (half[table[at] as number] as number)
          }
        }
      }
      // every feature's weight is 1/count (featurise): the mean of the rows
      const weight = Math.fround(1 / count)
      for (let d = 0; d < dim; d++) sums[i * dim + d] = (acc[d] as number) * weight
    }
    // the Dot layer's output is [texts, dim, 1]; a Flatten after it would only drop the last axis
    const values = new Map<object, Tensor>([
      [average, flat ? tf.tensor2d(sums, [n, dim]) : tf.tensor3d(sums, [n, dim, 1])]
    ])
    if (vectorsInput !== undefined && vectors !== undefined) {
      values.set(vectorsInput, tf.tensor2d(sentenceVectors(texts, cfg, vectors), [n, inputDim(cfg, vectors)]))
    }
    for (const [layer, run] of steps) {
      values.set(layer, run(layer.inboundNodes[0]!.inboundLayers.map(l => values.get(l) as Tensor)))
    }
    return values.get(output) as Tensor
  }
}

const FUSED = new Set(['linear', 'relu', 'relu6', 'elu', 'sigmoid'])

/**
 * A layer after the sum as the TF.js ops it runs, without the Keras layer machinery around them,
 * which costs more than the ops themselves for a short batch: Flatten, Dense (one fused matMul with
 * its bias and, where TF.js can fuse it, its activation; softmax and tanh after it), Multiply, Add.
 * Any other layer, or an input of another rank, is run by layer.call.
 */
function asOps (tf: TF, layer: Layer): (inputs: Tensor[]) => Tensor {
  const call = (inputs: Tensor[]) => layer.call(inputs.length === 1 ? inputs[0]! : inputs, {}) as Tensor
  const cls = layer.getClassName()
  if (cls === 'Flatten') return inputs => (inputs[0]!.rank === 2 ? inputs[0]! : call(inputs))
  if (cls === 'Multiply') return inputs => inputs.reduce((a, b) => tf.mul(a, b))
  if (cls === 'Add') return inputs => inputs.reduce((a, b) => tf.add(a, b))
  if (cls === 'Concatenate') return inputs => (inputs.every(x => x.rank === 2) ? tf.concat(inputs, -1) : call(inputs))
  const cfg = layer.getConfig() as { activation?: string; useBias?: boolean }
  const [kernel, bias] = layer.getWeights()
  const activation = cfg.activation ?? 'linear'
  if (
    cls !== 'Dense' ||
    kernel === undefined ||
    kernel.rank !== 2 ||
    (cfg.useBias !== false && bias === undefined) ||
    (!FUSED.has(activation) && activation !== 'softmax' && activation !== 'tanh')
  ) {
    return call
  }
  const b = cfg.useBias === false ? undefined : bias
  if (FUSED.has(activation)) {
    const fused = activation as 'linear' | 'relu' | 'relu6' | 'elu' | 'sigmoid'
    return inputs =>
      inputs[0]!.rank === 2
        ? tf.fused.matMul({ a: inputs[0] as Tensor2D, b: kernel as Tensor2D, bias: b, activation: fused })
        : call(inputs)
  }
  const then = activation === 'softmax' ? (z: Tensor) => tf.softmax(z) : (z: Tensor) => tf.tanh(z)
  return inputs =>
    inputs[0]!.rank === 2
      ? then(tf.fused.matMul({ a: inputs[0] as Tensor2D, b: kernel as Tensor2D, bias: b }))
      : call(inputs)
}
