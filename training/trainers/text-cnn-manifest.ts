// The manifest of a word-order classifier trained by training/trainers/text-cnn.ts: its architecture as
// the model card tells it, its inputs and outputs, the training run, the temperature and label biases, and
// the validation figures.
import type { ModelManifest } from '../../schemas/model-manifest.js'
import type { OpSpec } from '../specs/ops.js'
import { VECTORS, type TextCnnPlan, type Trained } from './text-cnn-plan.js'

/** the model's layers, its training and its temperature, in words */
function architectureOf (
  plan: TextCnnPlan,
  trained: Trained,
  data: ReturnType<OpSpec['data']>,
  trainerArgs: string,
  T: number,
  vdim: number,
  multi: boolean
): string {
  const { bag, mean, sequence, parts } = plan
  const bigrams = bag.wordBigrams ? ' and bigrams' : ''
  const chars = bag.charNgrams.length ? `, char ${bag.charNgrams.join('-')}-grams` : ''
  const negated = mean?.negatedVectors === true ? ' (and that of its negated words)' : ''
  const meanInput =
    mean !== undefined
      ? `, the SIF-weighted mean of the text's word vectors${negated} (${VECTORS}) ` +
        `through ${trained.meanHidden} ReLU units`
      : ''
  const output = multi ? 'one sigmoid per label (independent scores)' : 'a softmax over the labels'
  const inParts =
    parts !== undefined
      ? ` Served, a text of more than ${parts.words} words is read in parts (lib/text/cnn/parts.ts: ` +
        `its first ${parts.maxChars} characters as its sentences grouped into parts of at most ` +
        `${parts.words} words), its logits the mean of its parts' logits, each part weighing its words; ` +
        'the temperature and label biases were fitted on whole texts, ' +
        'the calibration by input on the served answers; ' +
        "the leave-one-domain-out figures read texts whole (the trainer's outputs)."
      : ''
  return (
    `A hashed n-gram bag (dim ${trained.dim}, ${bag.buckets} buckets of word unigrams${bigrams}${chars}; float16)` +
    `${meanInput} and a 1-D convolution over the words (${VECTORS}, frozen, ${vdim} dimensions, ` +
    `times ${trained.scale}; ${sequence.oovBuckets} learned float16 rows for tokens the table lacks; ` +
    `${trained.filters} filters of widths ${trained.widths.join(', ')}, ReLU, max over positions; ` +
    `the first ${sequence.maxTokens} tokens), side by side into ${output}. ` +
    `Trained by training/trainers/text_cnn.py (PyTorch, seed ${plan.seed}, ${trainerArgs}) ` +
    `on ${data.train.length} rows, each domain weighted as training/trainers/mix.ts weighDomains gives it. ` +
    `The logits divided by a temperature of ${T.toFixed(3)} plus a bias per label, ` +
    `fitted on half of the validation rows and folded into the output layer.${inParts}`
  )
}

/** The inputs and outputs of a word-order model of two labels without the word-vector input (abuse, sarcasm). */
export const TWO_LABELS_IO = {
  inputs: [
    {
      name: 'text',
      dtype: 'string',
      shape: [null],
      description:
        'n-gram ids (lib/text/bag/features.ts) and token ids (lib/text/cnn/tokens.ts) of each text, ' +
        'computed in TypeScript'
    }
  ],
  outputs: [
    {
      name: 'probabilities',
      dtype: 'float32',
      shape: [null, 2],
      description: 'probabilities over the labels (softmax)'
    }
  ]
} satisfies Pick<ModelManifest, 'inputs' | 'outputs'>

/** the manifest.json of the model trained to `plan` (its version: 1; the caller sets it) */
export function manifestOf (
  plan: TextCnnPlan,
  trained: Trained,
  data: ReturnType<OpSpec['data']>,
  trainerArgs: string,
  fit: { T: number; bias: number[] },
  metrics: ModelManifest['metrics'],
  vdim: number
): ModelManifest & { calibration: unknown } {
  const { op, spec } = plan
  const multi = spec.train.multiLabel === true
  const L = spec.labels.length
  const architecture = architectureOf(plan, trained, data, trainerArgs, fit.T, vdim, multi)
  return {
    name: op,
    version: 1,
    kind: 'text-cnn',
    description: spec.description,
    languages: ['en'],
    labels: spec.labels,
    ...(spec.tags !== undefined ? { tags: spec.tags } : {}),
    inputs: [
      {
        name: 'text',
        dtype: 'string',
        shape: [null],
        description:
          'n-gram ids (lib/text/bag/features.ts), token ids (lib/text/cnn/tokens.ts)' +
          (plan.mean !== undefined ? ' and the word-vector input (lib/text/bag/sentence-input.ts)' : '') +
          ' of each text, computed in TypeScript'
      }
    ],
    outputs: [
      multi
        ? {
            name: 'scores',
            dtype: 'float32',
            shape: [null, L],
            description: 'an independent probability per label (sigmoid)'
          }
        : {
            name: 'probabilities',
            dtype: 'float32',
            shape: [null, L],
            description: 'probabilities over the labels (softmax)'
          }
    ],
    files: ['weights.json', 'weights.bin', `../../${VECTORS}`],
    training: {
      command: `npm run train -- ${op}`,
      seed: plan.seed,
      data: data.sources,
      notes: [architecture, plan.notes, spec.notes ?? ''].join(' ').trim()
    },
    calibration: {
      method: 'temperature scaling with a bias per label',
      temperature: Number(fit.T.toFixed(4)),
      bias: fit.bias
    },
    metrics,
    created: new Date().toISOString()
  }
}
