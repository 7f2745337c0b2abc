// The serving side of the trained text classifiers (manifest kind text-classifier): a TF.js
// LayersModel (hashed-feature embedding bag, averaged, then a softmax layer) and its feature
// configuration. One code path: a single text is a batch of one; a batch runs as one tensor batch
// (in chunks of 256 texts to bound memory).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LoadedModel, ModelLoader } from '../models.js'
import { fileIO } from '../tf-io.js'
import { featuriseBatch, type FeatureConfig } from './features.js'

const CHUNK = 256

export const loadTextClassifier: ModelLoader = async (dir, manifest, tf) => {
  const cfg = JSON.parse(await readFile(join(dir, 'features.json'), 'utf8')) as FeatureConfig
  const model = await tf.loadLayersModel(fileIO(join(dir, 'model.json')))
  const predict = async (texts: string[]): Promise<number[][]> => {
    const out: number[][] = []
    for (let start = 0; start < texts.length; start += CHUNK) {
      const part = texts.slice(start, start + CHUNK)
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
