// The serving side of the trained text classifiers (manifest kind text-classifier): a TF.js
// LayersModel (hashed-feature embedding bag, averaged, then a softmax layer) and its feature
// configuration. One code path: a single text is a batch of one; a batch runs as one tensor batch
// (cut into several when its texts x features x dim would pass MAX_ACTIVATIONS, to bound memory).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LoadedModel, ModelLoader } from '../../serving/models.js'
import { fileIO } from '../../runtime/tf-io.js'
import { featureIds, featuriseBatch, type FeatureConfig } from './features.js'
import { loadSharedVectors, type WordVectors } from '../words/vectors.js'
import { inputDim, sentenceInput } from './sentence-input.js'
import { adoptedArray, type SharedArray } from '../pool/shared-memory.js'
import { halves, sharedEmbedding, withoutEmbeddingTable } from '../pool/shared-tables.js'
import {
  inputCalibrationOf,
  inputShape,
  languageCalibrationOf,
  languageCalibrationProblem,
  recalibrate
} from '../calibration.js'
import type { TF } from '../../runtime/tf.js'

type Tensor = import('@tensorflow/tfjs').Tensor
type Tensor2D = import('@tensorflow/tfjs').Tensor2D
type LayersModel = import('@tensorflow/tfjs').LayersModel

// A batch runs as one tensor batch unless its embedding activations (texts x features x dim) would
// pass this many floats (64 MB): long texts are then cut into several tensor batches. The JS
// embedding bag below never builds those activations, but model.predict (the fallback) does.
const MAX_ACTIVATIONS = 16 * 1024 * 1024

/** The embedding table, once per process for every text worker (lib/text/pool/shared-memory.ts): float32, or float16 bits; none for a model without one. */
export async function shareClassifier (dir: string): Promise<Record<string, SharedArray>> {
  const table = await sharedEmbedding(dir)
  return table === null ? {} : { [table instanceof Uint16Array ? EMBEDDING_HALVES : EMBEDDING_TABLE]: table }
}
const EMBEDDING_TABLE = 'embeddings'
const EMBEDDING_HALVES = 'embeddings.float16'

export const loadTextClassifier: ModelLoader = async (dir, manifest, tf) => {
  const cfg = JSON.parse(await readFile(join(dir, 'features.json'), 'utf8')) as FeatureConfig
  // with the process's shared copy of the embedding table (the text workers), TF.js loads a stub of it
  const shared = adoptedArray(dir, EMBEDDING_TABLE, Float32Array) ?? adoptedArray(dir, EMBEDDING_HALVES, Uint16Array)
  const stub = shared === undefined ? undefined : withoutEmbeddingTable(join(dir, 'model.json'))
  const model = await tf.loadLayersModel(stub?.handler ?? fileIO(join(dir, 'model.json')))
  const dim = (model.getLayer('features').getWeights()[0]?.shape[1] as number | undefined) ?? 32
  // the shared word-vector table, named relative to the model store
  const vectors = cfg.vectors === undefined ? undefined : await loadSharedVectors(dir, cfg.vectors)
  const table = stub === undefined || shared === undefined ? undefined : { values: shared, rows: stub.rows() }
  const bag = embeddingBag(tf, model, cfg, vectors, table)
  if (table !== undefined && bag === null) {
    throw new Error(`${dir}: a shared embedding table needs the embedding-bag architecture`)
  }
  const forward =
    bag ??
    ((texts: string[]) => {
      const { ids, weights, width } = featuriseBatch(texts, cfg)
      const inputs = [tf.tensor2d(ids, [texts.length, width], 'int32'), tf.tensor2d(weights, [texts.length, width])]
      if (vectors !== undefined) {
        inputs.push(tf.tensor2d(sentenceVectors(texts, cfg, vectors), [texts.length, inputDim(cfg, vectors)]))
      }
      return model.predict(inputs) as Tensor
    })
  const predict = async (texts: string[]): Promise<number[][]> => {
    let widest = 1
    for (const t of texts) widest = Math.max(widest, Math.min(cfg.maxFeatures, t.length * 8))
    const chunk = Math.max(1, Math.floor(MAX_ACTIVATIONS / (widest * dim)))
    if (texts.length <= chunk) return run(texts)
    const out: number[][] = []
    for (let start = 0; start < texts.length; start += chunk) out.push(...run(texts.slice(start, start + chunk)))
    return out
  }
  // calibration by input (lib/text/calibration.ts), when the manifest has it: a text's scores are
  // rescaled by a temperature of its own, text by text, so a batch answers what each text alone would
  const byInput = inputCalibrationOf(manifest)
  if (byInput !== undefined && byInput.bias.length !== manifest.labels.length) {
    throw new Error(
      `${dir}: the calibration by input has ${byInput.bias.length} label biases for ${manifest.labels.length} labels`
    )
  }
  const multi = (model.outputLayers[0]?.getConfig() as { activation?: string } | undefined)?.activation === 'sigmoid'
  // the calibration by language (lib/http/lang-route.ts forLanguage applies it) is checked here, once
  const byLanguage = languageCalibrationOf(manifest)
  const problem = byLanguage === undefined ? undefined : languageCalibrationProblem(byLanguage, multi)
  if (problem !== undefined) throw new Error(`${dir}: ${problem}`)
  const run = (texts: string[]): number[][] => {
    const probs = tf.tidy(() => forward(texts))
    let out: number[][]
    try {
      out = probs.arraySync() as number[][]
    } finally {
      probs.dispose()
    }
    if (byInput === undefined) return out
    return out.map((p, i) => recalibrate(p, inputShape(texts[i] as string, cfg, vectors), byInput, multi))
  }
  const loaded: LoadedModel<string, number[]> = {
    manifest,
    predict,
    dispose: () => {
      model.dispose()
    }
  }
  return loaded
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
function embeddingBag (
  tf: TF,
  model: LayersModel,
  cfg: FeatureConfig,
  vectors?: WordVectors,
  shared?: { values: Float32Array | Uint16Array; rows: number }
): ((texts: string[]) => Tensor) | null {
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
  const readers = (l: unknown) => model.layers.filter(x => x.inboundNodes[0]?.inboundLayers.includes(l as never))
  if (readers(embedding).length !== 1 || readers(weightsInput).length !== 1 || readers(reshape).length !== 1) {
    return null
  }
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
  const flat = readers(average).every(l => l.getClassName() === 'Flatten')
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

/** Each text's word-vector input (the SIF-weighted, L2-normalised mean; lib/text/bag/sentence-input.ts), as training computed it (training/trainers/sparse-sgd.ts featuriseWith). */
function sentenceVectors (texts: string[], cfg: FeatureConfig, vectors: WordVectors): Float32Array {
  const dim = inputDim(cfg, vectors)
  const out = new Float32Array(texts.length * dim)
  const one = new Float32Array(dim)
  texts.forEach((t, i) => {
    sentenceInput(t, cfg, vectors, one)
    out.set(one, i * dim)
  })
  return out
}

type Layer = LayersModel['layers'][number]
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
