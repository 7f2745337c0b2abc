// The serving side of the trained text classifiers (manifest kind text-classifier): a TF.js
// LayersModel (hashed-feature embedding bag, averaged, then a softmax layer) and its feature
// configuration. One code path: a single text is a batch of one; a batch runs as one tensor batch
// (cut into several when its texts x features x dim would pass MAX_ACTIVATIONS, to bound memory).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LoadedModel, ModelLoader } from '../../serving/loaded-model.js'
import { fileIO } from '../../runtime/tf-io.js'
import { featuriseBatch, type FeatureConfig } from './features.js'
import { loadSharedVectors } from '../words/vectors.js'
import { inputDim, sentenceVectors } from './sentence-input.js'
import { embeddingBag } from './embedding-bag.js'
import { adoptedArray, type SharedArray } from '../pool/shared-memory.js'
import { sharedEmbedding, withoutEmbeddingTable } from '../pool/shared-tables.js'
import {
  inputCalibrationOf,
  inputShape,
  languageCalibrationOf,
  languageCalibrationProblem,
  recalibrate
} from '../calibration.js'

type Tensor = import('@tensorflow/tfjs').Tensor

// A batch runs as one tensor batch unless its embedding activations (texts x features x dim) would
// pass this many floats (64 MB): long texts are then cut into several tensor batches. The JS
// embedding bag (lib/text/bag/embedding-bag.ts) never builds those activations, but model.predict (the
// fallback) does.
const MAX_ACTIVATIONS = 16 * 1024 * 1024

/**
 * The embedding table, once per process for every text worker (lib/text/pool/shared-memory.ts): float32, or
 * float16 bits; none for a model without one.
 */
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
  // the calibration by language (lib/text/routing.ts calibratedFor applies it) is checked here, once
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
