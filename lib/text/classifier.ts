// The serving side of the trained text classifiers (manifest kind text-classifier): a TF.js
// LayersModel (hashed-feature embedding bag, averaged, then a softmax layer) and its feature
// configuration. One code path: a single text is a batch of one; a batch runs as one tensor batch
// (cut into several when its texts x features x dim would pass MAX_ACTIVATIONS, to bound memory).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LoadedModel, ModelLoader } from '../models.js'
import { fileIO } from '../tf-io.js'
import { featuriseBatch, type FeatureConfig } from './features.js'
import type { TF } from '../tf.js'

type Tensor = import('@tensorflow/tfjs').Tensor
type LayersModel = import('@tensorflow/tfjs').LayersModel

// A batch runs as one tensor batch unless its embedding activations (texts x features x dim) would
// pass this many floats (64 MB): long texts are then cut into several tensor batches. The JS
// embedding bag below never builds those activations, but model.predict (the fallback) does.
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

/**
 * The model's forward pass with the embedding bag done in JS: each text's weighted sum of its
 * feature rows (the 'average' Dot layer's output) is summed here from a copy of the table, and the
 * layers after it run as model.predict runs them. tf.gather and the [texts x features x dim]
 * activations it builds cost most of a batch's time (2 s for 1000 long texts), and for one short
 * text the kernels of the embedding, reshape and dot layers cost more than the sum itself. The
 * sums are taken in double precision, so results may differ from model.predict's float32 in the
 * last bits (test/lib/text/models.test.ts compares them for every model in model-store). Null, and
 * model.predict is used, for another architecture.
 */
function embeddingBag (tf: TF, model: LayersModel): ((ids: Int32Array, weights: Float32Array, n: number, width: number) => Tensor) | null {
  const embedding = model.getLayer('features')
  const idsInput = embedding.inboundNodes[0]?.inboundLayers[0]
  const rest = model.inputLayers.filter((l) => l !== idsInput)
  const output = model.outputLayers[0]
  if (embedding.getClassName() !== 'Embedding' || idsInput === undefined || model.inputLayers[0] !== idsInput || rest.length !== 1 ||
    model.outputLayers.length !== 1 || output === undefined || model.layers.some((l) => l.inboundNodes.length > 1)) return null
  const weightsInput = rest[0]!
  // the weighted sum: Dot(axes 1) of the embedding and the weights reshaped to [texts, features, 1]
  const average = model.layers.find((l) => l.getClassName() === 'Dot' && l.inboundNodes[0]?.inboundLayers[0] === embedding)
  const reshape = average?.inboundNodes[0]?.inboundLayers[1]
  const dotAxes = (average?.getConfig() as { axes?: unknown } | undefined)?.axes
  if (average === undefined || reshape === undefined || reshape.getClassName() !== 'Reshape' || reshape.inboundNodes[0]?.inboundLayers[0] !== weightsInput ||
    !['[-1,1]', '[null,1]'].includes(JSON.stringify((reshape.getConfig() as { targetShape?: unknown }).targetShape)) || (dotAxes !== 1 && JSON.stringify(dotAxes) !== '[1,1]')) return null
  // nothing but the sum may read the embedding or the weights
  const readers = (l: unknown) => model.layers.filter((x) => x.inboundNodes[0]?.inboundLayers.includes(l as never))
  if (readers(embedding).length !== 1 || readers(weightsInput).length !== 1 || readers(reshape).length !== 1) return null
  const [w] = embedding.getWeights()
  if (w === undefined || w.shape.length !== 2) return null
  const table = w.dataSync() as Float32Array
  const rows = w.shape[0] as number
  const dim = w.shape[1] as number
  const skip = new Set<unknown>([idsInput, weightsInput, embedding, reshape, average])
  const after = model.layers.filter((l) => !skip.has(l))
  const acc = new Float64Array(dim)
  return (ids, weights, n, width) => {
    const sums = new Float32Array(n * dim)
    for (let i = 0; i < n; i++) {
      acc.fill(0)
      for (let k = i * width, end = k + width; k < end; k++) {
        const wt = weights[k] as number
        if (wt === 0) continue
        const id = ids[k] as number
        if (id < 0 || id >= rows) throw new Error(`feature id ${id} is outside the embedding table (${rows} rows)`)
        for (let d = 0, at = id * dim; d < dim; d++, at++) acc[d] = (acc[d] as number) + wt * (table[at] as number)
      }
      sums.set(acc, i * dim)
    }
    const values = new Map<object, Tensor>([[average, tf.tensor3d(sums, [n, dim, 1])]])
    for (const layer of after) {
      const inputs = layer.inboundNodes[0]!.inboundLayers.map((l) => values.get(l) as Tensor)
      values.set(layer, layer.call(inputs.length === 1 ? inputs[0]! : inputs, {}) as Tensor)
    }
    return values.get(output) as Tensor
  }
}
