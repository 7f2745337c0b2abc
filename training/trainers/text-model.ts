// A text classifier trained and saved the way `npm run train` saves the classifiers of
// training/specs/ops.ts (a fastText-style embedding bag, kind `text-classifier`), for the operations
// whose training scripts are their own (training/<op>.ts).

import type { FeatureConfig } from '../../lib/text/bag/features.js'
import { trainSparseSgd, type TrainOptions } from './sparse-sgd.js'
import { predictAll, type Weights } from './embedding-bag.js'
import { argmax, confusion } from './scores.js'
import type { Labelled } from '../readers/data.js'
import { saveClassifier } from './save-classifier.js'
import { nextVersion } from '../readers/store.js'
import { options } from '../readers/options.js'

export interface TextValidation {
  name: string
  split: string
  rows: Labelled[]
  metric: { name: string; score: (m: number[][]) => number; baseline?: string }
}
export interface TextModelSpec {
  op: string
  labels: string[]
  description: string
  notes: string
  features: FeatureConfig
  train: Omit<TrainOptions, 'classes'>
  rows: Labelled[]
  validation: TextValidation[]
  sources: Array<{ name: string; path: string; licence: string; split?: string; rows?: number }>
}

export interface Trained {
  weights: Weights
  predict: (texts: string[]) => number[][]
  metrics: Array<{ dataset: string; split: string; metric: string; value: number; baseline?: string }>
}

/** Trains on spec.rows and scores every validation set (the first one is the progress figure). */
export function trainText (spec: TextModelSpec): Trained {
  const index = new Map(spec.labels.map((l, i) => [l, i]))
  const id = (label: string) => {
    const i = index.get(label)
    if (i === undefined) throw new Error(`unknown label ${label}`)
    return i
  }
  const examples = spec.rows.map(r => ({ text: r.text, label: id(r.label) }))
  const scoreOn = (v: TextValidation, w: Weights) =>
    v.metric.score(
      confusion(
        v.rows.map(r => id(r.label)),
        predictAll(
          w,
          v.rows.map(r => r.text),
          spec.features
        ).map(argmax),
        spec.labels.length
      )
    )
  const primary = spec.validation[0]!
  const weights = trainSparseSgd(examples, spec.features, { ...spec.train, classes: spec.labels.length }, w => ({
    name: primary.metric.name,
    value: scoreOn(primary, w)
  }))
  const metrics = spec.validation.map(v => ({
    dataset: v.name,
    split: v.split,
    metric: v.metric.name,
    value: Number(scoreOn(v, weights).toFixed(4)),
    ...(v.metric.baseline === undefined ? {} : { baseline: v.metric.baseline })
  }))
  return { weights, predict: texts => predictAll(weights, texts, spec.features), metrics }
}

/** Writes model-store/<op>/1 (or TRAIN_OUT): model.json, weights.bin, features.json, manifest.json. */
export async function saveText (spec: TextModelSpec, trained: Trained): Promise<string> {
  const dir = options.out ?? nextVersion(spec.op)
  const t = spec.train
  const f = spec.features
  const architecture =
    `fastText-style embedding bag (dim ${t.dim}, ${f.buckets} hashed buckets of word unigrams` +
    `${f.wordBigrams ? ', bigrams' : ''}${f.charNgrams.length > 0 ? `, char ${f.charNgrams.join('-')}-grams` : ''}), ` +
    `${t.epochs} epochs of SGD from lr ${t.lr}${t.balance ? ', class-balanced loss' : ''}; ` +
    `${spec.rows.length} training rows; embedding table stored as float16.`
  await saveClassifier(dir, trained.weights, f, {
    op: spec.op,
    description: spec.description,
    labels: spec.labels,
    seed: t.seed,
    sources: spec.sources,
    notes: `${architecture} ${spec.notes}`.trim(),
    metrics: trained.metrics
  })
  return dir
}
