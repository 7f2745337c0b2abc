// Writes a trained text classifier as the service loads it (manifest kind text-classifier):
// model.json and weights.bin (embedding table as float16), features.json and manifest.json. Shared
// by npm run train (training/train.ts) and the operations with training scripts of their own.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { getTf } from '../../lib/runtime/tf.js'
import type { FeatureConfig } from '../../lib/text/bag/features.js'
import { saveModel, type Weights } from './embedding-bag.js'
import { quantiseEmbedding } from './quantise.js'
import { versionOf } from '../readers/store.js'

export interface ClassifierCard {
  op: string
  description: string
  labels: string[]
  /** each label's place in a public taxonomy */
  tags?: Record<string, { id: string; name: string }>
  seed: number
  sources: Array<{ name: string; path: string; licence: string; split?: string; rows?: number }>
  notes: string
  calibration?: { method: string; temperature: number; bias?: number[] }
  metrics: Array<{ dataset: string; split: string; metric: string; value: number; baseline?: string }>
}

/**
 * Writes dir/{model.json, weights.bin, features.json, manifest.json}. cfg.vectors names the shared word-vector
 * table the model reads, if any.
 */
export async function saveClassifier (
  dir: string,
  weights: Weights,
  cfg: FeatureConfig,
  card: ClassifierCard
): Promise<void> {
  await mkdir(dir, { recursive: true })
  const { tf } = await getTf()
  await saveModel(tf, weights, join(dir, 'model.json'))
  await quantiseEmbedding(join(dir, 'model.json'), 'features')
  await writeFile(join(dir, 'features.json'), JSON.stringify(cfg, null, 2) + '\n')
  const multi = weights.multiLabel === true
  const vdim = weights.vdim ?? 0
  const manifest = {
    name: card.op,
    version: versionOf(dir),
    kind: 'text-classifier',
    description: card.description,
    languages: ['en'],
    labels: card.labels,
    ...(card.tags !== undefined ? { tags: card.tags } : {}),
    inputs: [
      {
        name: 'ids',
        dtype: 'int32',
        shape: [null, null],
        description: 'hashed feature ids of each text (lib/text/bag/features.ts with features.json); 0 pads'
      },
      {
        name: 'weights',
        dtype: 'float32',
        shape: [null, null],
        description: '1/n for each of the n features of a text, 0 on padding'
      },
      ...(cfg.vectors !== undefined && vdim > 0
        ? [
            {
              name: 'vectors',
              dtype: 'float32',
              shape: [null, vdim],
              description:
                "the SIF-weighted, L2-normalised mean of the text's word vectors from " +
                `model-store/${cfg.vectors} (lib/text/words/vectors.ts)`
            }
          ]
        : [])
    ],
    outputs: [
      {
        name: multi ? 'scores' : 'probabilities',
        dtype: 'float32',
        shape: [null, card.labels.length],
        description: multi
          ? 'an independent probability per label (sigmoid)'
          : 'probabilities over the labels (softmax)'
      }
    ],
    files: [
      'model.json',
      'weights.bin',
      'features.json',
      ...(cfg.vectors !== undefined ? [`../../${cfg.vectors}`] : [])
    ],
    training: { command: `npm run train -- ${card.op}`, seed: card.seed, data: card.sources, notes: card.notes },
    ...(card.calibration !== undefined ? { calibration: card.calibration } : {}),
    metrics: card.metrics,
    created: new Date().toISOString()
  }
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
}
