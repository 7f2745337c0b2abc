// The serving side of the trained text classifiers (manifest kind text-classifier): a TF.js
// LayersModel (hashed-feature embedding bag, averaged, then a softmax layer) and its feature
// configuration. One code path: a single text is a batch of one; a batch runs as one tensor batch
// (in chunks of 256 texts to bound memory).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LoadedModel, ModelLoader } from '../models.js'
import { fileIO } from '../tf-io.js'
import { featuriseBatch, type FeatureConfig } from './features.js'

// A batch runs as one tensor batch unless its embedding activations (texts x features x dim) would
// pass this many floats (64 MB): long texts are then cut into several tensor batches.
const MAX_ACTIVATIONS = 16 * 1024 * 1024

export const loadTextClassifier: ModelLoader = async (dir, manifest, tf) => {
  const cfg = JSON.parse(await readFile(join(dir, 'features.json'), 'utf8')) as FeatureConfig
  const model = await tf.loadLayersModel(fileIO(join(dir, 'model.json')))
  const dim = (model.getLayer('features').getWeights()[0]?.shape[1] as number | undefined) ?? 32
  const predict = async (texts: string[]): Promise<number[][]> => {
    const out: number[][] = []
    const widest = Math.max(1, ...texts.map((t) => Math.min(cfg.maxFeatures, t.length * 8)))
    const chunk = Math.max(1, Math.floor(MAX_ACTIVATIONS / (widest * dim)))
    for (let start = 0; start < texts.length; start += chunk) {
      const part = texts.slice(start, start + chunk)
      const { ids, weights, width } = featuriseBatch(part, cfg)
      const probs = tf.tidy(() => {
        const y = model.predict([tf.tensor2d(ids, [part.length, width], 'int32'), tf.tensor2d(weights, [part.length, width])]) as import('@tensorflow/tfjs').Tensor
        return y
      })
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
