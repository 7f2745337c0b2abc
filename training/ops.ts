// What each operation's model is trained on and scored with.
import type { FeatureConfig } from '../lib/text/features.js'
import type { TrainOptions } from './fasttext.js'
import { semevalSentiment, tweeteval, withoutOverlap, type Labelled } from './data.js'
import { macroRecall } from './metrics.js'

/** a training row: its domain (for leave-one-domain-out) and a sample weight (to balance domains) */
export type Row = Labelled & { domain?: string, weight?: number }
export interface Validation {
  name: string
  split: string
  rows: Labelled[]
  /** score from the confusion matrix of top labels; probs and gold (-1: no label fits) for metrics that need the scores */
  metric: { name: string, score: (m: number[][], probs: number[][], gold: number[]) => number, baseline?: string }
  /** false: no calibration figure for this set (its labels are weak or one-sided) */
  calibration?: boolean
}
export interface OpSpec {
  labels: string[]
  description: string
  notes?: string
  features: FeatureConfig
  train: Omit<TrainOptions, 'classes'>
  /** also read the shared word vectors (model-store/word-vectors) */
  vectors?: boolean
  /** each label's place in a public taxonomy (taxonomy: IAB Content Taxonomy 3.1 tier 1) */
  tags?: Record<string, { id: string, name: string }>
  data: () => {
    train: Row[]
    validation: Validation[]
    sources: Array<{ name: string, path: string, licence: string, split?: string, rows?: number }>
    mixture?: MixtureData
    /** leave one domain out: train without the rows of `domain`, score on validation set `validation` */
    domains?: Array<{ domain: string, validation: number }>
  }
  /** a gated mixture of two experts (training/mixture.ts) instead of one model; `train` is then the union of the experts' rows */
  mixture?: { a: Omit<TrainOptions, 'classes'>, b: Omit<TrainOptions, 'classes'>, gate: Omit<TrainOptions, 'classes'> }
}
/** Each expert's rows, and the gate's: texts of expert A's domain (label 'a') and of B's ('b'). */
export interface MixtureData { a: Expert, b: Expert, gate: Labelled[] }
/** an expert's training rows, and which of the op's validation sets is of its domain (its progress figure, and the gate's) */
interface Expert { name: string, rows: Labelled[], validation: number }

const TWEETS: FeatureConfig = { buckets: 1 << 17, charNgrams: [3, 5], wordBigrams: true, maxFeatures: 1500, maxChars: 2000 }

import { MORE } from './ops-more.js'

export const OPS: Record<string, OpSpec> = {
  sentiment: {
    labels: ['negative', 'neutral', 'positive'],
    description: 'Tweet sentiment: negative, neutral, positive. Trained on SemEval 2013-2016 task 4A tweets.',
    features: TWEETS,
    train: { dim: 32, epochs: 8, lr: 0.2, seed: 7, balance: true },
    data: () => {
      const val = tweeteval('sentiment/tweeteval-sentiment', 'val')
      const train = withoutOverlap(semevalSentiment(), val)
      return {
        train,
        validation: [{ name: 'tweeteval-sentiment', split: 'validation', rows: val, metric: { name: 'macro-averaged recall', score: (m) => macroRecall(m, [0, 1, 2]), baseline: 'published: fastText 0.629, SVM 0.629, BiLSTM 0.583, SemEval-2017 best 0.681, RoBERTa 0.728; lexicons (held-out): AFINN 0.575, VADER 0.559' } }],
        sources: [
          { name: 'SemEval-2017 Task 4A (2013-2016 tweets)', path: 'sentiment/semeval2017-task4a', licence: 'research use (tweets under the Twitter/X terms; repository MIT)', split: 'all files, minus tweets also in the validation set', rows: train.length },
          { name: 'TweetEval sentiment', path: 'sentiment/tweeteval-sentiment', licence: 'research use (tweets under the Twitter/X terms)', split: 'validation', rows: val.length }
        ]
      }
    }
  },
  ...MORE
}
