// The serving side of the trained text classifiers (manifest kind text-classifier): a TF.js
// LayersModel (hashed-feature embedding bag, averaged, then a softmax layer) and its feature
// configuration. One code path: a single text is a batch of one; a batch runs as one tensor batch
// (in chunks of 256 texts to bound memory).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LoadedModel, ModelLoader } from '../models.js'
import { fileIO } from '../tf-io.js'
import { featuriseBatch, type FeatureConfig } from './features.js'
import type { TF } from '../tf.js'

type Tensor = import('@tensorflow/tfjs').Tensor
type LayersModel = import('@tensorflow/tfjs').LayersModel

// A batch runs as one tensor batch unless its embedding activations (texts x features x dim) would
// pass this many floats (64 MB): long texts are then cut into several tensor batches.
const MAX_ACTIVATIONS = 16 * 1024 * 1024

export const loadTextClassifier: ModelLoader = async (dir, manifest, tf) => {
  const cfg = JSON.parse(await readFile(join(dir, 'features.json'), 'utf8')) as FeatureConfig
  const model = await tf.loadLayersModel(fileIO(join(dir, 'model.json')))
  const dim = (model.getLayer('features').getWeights()[0]?.shape[1] as number | undefined) ?? 32
  const forward = embeddingBag(tf, model) ?? ((ids: Int32Array, weights: Float32Array, n: number, width: number) =>
    model.predict([tf.tensor2d(ids, [n, width], 'int32'), tf.tensor2d(weights, [n, width])]) as Tensor)
  const predict = async (texts: string[]): Promise<number[][]> => {
    const out: number[][] = []
    const widest = Math.max(1, ...texts.map((t) => Math.min(cfg.maxFeatures, t.length * 8)))
    const chunk = Math.max(1, Math.floor(MAX_ACTIVATIONS / (widest * dim)))
    for (let start = 0; start < texts.length; start += chunk) {
      const part = texts.slice(start, start + chunk)
      const { ids, weights, width } = featuriseBatch(part, cfg)
      const probs = tf.tidy(() => forward(ids, weights, part.length, width))
      const rows = await probs.array() as number[][]
      probs.dispose()
      out.push(...rows)
    }
    return out
  }
  const loaded: LoadedModel<string, number[]> = {
    manifest,
    predict,
    dispose: () => { model.dispose() }
  }
  return loaded
}

// model.predict's own slice size: the same slices give the same float results
const SLICE = 32

/**
 * The model's forward pass with the embedding lookup done in JS. tf.gather costs about 200 ns per
 * copied float on the wasm and cpu backends, most of a batch's time (2 s for 1000 long texts); the
 * rows are copied here from a copy of the table into a buffer kept between calls instead, and the
 * layers after the embedding run as model.predict runs them, so the answers are bit for bit the
 * same (test/lib/text/models.test.ts). Null, and model.predict is used, for another architecture.
 */
function embeddingBag (tf: TF, model: LayersModel): ((ids: Int32Array, weights: Float32Array, n: number, width: number) => Tensor) | null {
  const embedding = model.getLayer('features')
  const idsInput = embedding.inboundNodes[0]?.inboundLayers[0]
  const rest = model.inputLayers.filter((l) => l !== idsInput)
  const output = model.outputLayers[0]
  if (embedding.getClassName() !== 'Embedding' || idsInput === undefined || model.inputLayers[0] !== idsInput || rest.length !== 1 ||
    model.outputLayers.length !== 1 || output === undefined || model.layers.some((l) => l.inboundNodes.length > 1)) return null
  const weightsInput = rest[0]!
  const [w] = embedding.getWeights()
  if (w === undefined || w.shape.length !== 2) return null
  const table = w.dataSync() as Float32Array
  const rows = w.shape[0] as number
  const dim = w.shape[1] as number
  let buffer = new Float32Array(0)
  return (ids, weights, n, width) => {
    const parts: Tensor[] = []
    for (let s = 0; s < n; s += SLICE) {
      const m = Math.min(SLICE, n - s)
      const size = m * width * dim
      if (buffer.length < size) buffer = new Float32Array(size)
      for (let k = 0, at = s * width; k < m * width; k++, at++) {
        const id = ids[at] as number
        if (id < 0 || id >= rows) throw new Error(`feature id ${id} is outside the embedding table (${rows} rows)`)
        buffer.set(table.subarray(id * dim, id * dim + dim), k * dim)
      }
      // kernels run synchronously, so the next slice may reuse the buffer a backend kept a view of
      const values = new Map<object, Tensor>([
        [weightsInput, tf.tensor2d(weights.subarray(s * width, (s + m) * width), [m, width])],
        [embedding, tf.tensor3d(buffer.subarray(0, size), [m, width, dim])]
      ])
      for (const layer of model.layers) {
        if (values.has(layer) || layer === idsInput) continue
        const inputs = layer.inboundNodes[0]!.inboundLayers.map((l) => values.get(l) as Tensor)
        values.set(layer, layer.apply(inputs) as Tensor)
      }
      parts.push(values.get(output) as Tensor)
    }
    return parts.length === 1 ? parts[0]! : tf.concat(parts, 0)
  }
}
