// The plan of a word-order classifier's training (training/trainers/text-cnn.ts): the operation, its
// features, the trainer's options, the probe texts and the notes; the plan most operations use; and what
// the trainer writes of the weights it trained (weights.json).
import type { SequenceConfig } from '../../lib/text/cnn/tokens.js'
import type { CnnWeightsJson } from '../../lib/text/cnn/classifier.js'
import type { PartsConfig } from '../../lib/text/cnn/parts.js'
import type { FeatureConfig } from '../../lib/text/bag/features.js'
import type { OpSpec } from '../specs/ops.js'
import { cnnOptions } from '../readers/options.js'

export interface TextCnnPlan {
  op: string
  spec: OpSpec
  seed: number
  bag: FeatureConfig
  sequence: SequenceConfig
  /**
   * the word-vector input's features (lib/text/bag/sentence-input.ts), read through --mean-hidden units; none
   * when absent
   */
  mean?: FeatureConfig
  /**
   * the served model reads a long text in parts (lib/text/cnn/parts.ts), its logits the mean of theirs;
   * absent: whole
   */
  parts?: PartsConfig
  /** the trainer's options (training/trainers/text_cnn.py --help), without --train-sets, --classes and --loss */
  trainer: string[]
  /** texts whose probabilities the trainer's weights give, saved to reference.json for the serving test */
  probes: string[]
  /** what was tried, for the manifest */
  notes: string
}

/**
 * The plan most operations use: the n-gram bag of the operation's features (and the word-vector input
 * of the same features through spec.train.hidden ReLU units, as its embedding bag had), a convolution of
 * 64 filters of widths 2-4 over the first 128 tokens, Adam (lr 0.002, the bag's 0.02), the bag's width
 * and class balance from spec.train, `epochs` epochs; seed from spec.train unless <OP>_SEED says otherwise.
 */
export function standardPlan (op: string, spec: OpSpec, epochs: number, probes: string[], notes: string): TextCnnPlan {
  const { vectors: _, ...bag } = spec.features
  return {
    op,
    spec,
    seed: cnnOptions(op).seed ?? spec.train.seed,
    bag,
    sequence: { maxChars: bag.maxChars, maxTokens: 128, oovBuckets: 8192 },
    mean: bag,
    trainer: [
      '--epochs',
      String(epochs),
      '--lr',
      '0.002',
      '--bag-lr',
      '0.02',
      '--batch',
      '64',
      '--dim',
      String(spec.train.dim),
      '--filters',
      '64',
      '--widths',
      '2,3,4',
      '--mean-hidden',
      String(spec.train.hidden ?? 64),
      '--dropout',
      '0.3',
      '--scale',
      '0.2',
      ...(spec.train.balance === true ? ['--balance'] : [])
    ],
    probes,
    notes
  }
}

/** the shared word-vector table, a folder below model-store (weights.json names it for serving) */
export const VECTORS = 'word-vectors/1'

/** what the trainer writes of the weights it trained (weights.json) */
export interface Trained {
  dim: number
  filters: number
  widths: number[]
  scale: number
  meanHidden: number
  tensors: CnnWeightsJson['tensors']
}
