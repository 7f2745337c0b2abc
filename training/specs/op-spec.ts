// The shape of an operation's training recipe (training/specs/ops.ts lists them): its rows, validation sets
// and sources. Types only, so that the recipes and the readers they share import them without a circle.
import type { FeatureConfig } from '../../lib/text/bag/features.js'
import type { TrainOptions } from '../trainers/sparse-sgd.js'
import type { Labelled } from '../readers/data.js'

/** a training row: its domain (for leave-one-domain-out) and a sample weight (to balance domains) */
export type Row = Labelled & { domain?: string; weight?: number }
export interface Validation {
  name: string
  split: string
  rows: Labelled[]
  /**
   * score from the confusion matrix of top labels; probs and gold (-1: no label fits) for metrics that
   * need the scores
   */
  metric: { name: string; score: (m: number[][], probs: number[][], gold: number[]) => number; baseline?: string }
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
  tags?: Record<string, { id: string; name: string }>
  data: () => {
    train: Row[]
    validation: Validation[]
    sources: Array<{ name: string; path: string; licence: string; split?: string; rows?: number }>
    /** leave one domain out: train without the rows of `domain`, score on validation set `validation` */
    domains?: Array<{ domain: string; validation: number }>
  }
}
