// The manifest of the sarcasm model (training/recipes/sarcasm.ts): its architecture as the model card
// tells it, its inputs and outputs, the training run and the calibration, and the validation figures.
import type { SequenceConfig } from '../../lib/text/cnn/tokens.js'
import type { FeatureConfig } from '../../lib/text/bag/features.js'
import type { ModelManifest } from '../../schemas/model-manifest.js'
import { TWO_LABELS_IO } from './text-cnn-manifest.js'
import type { OpSpec } from '../specs/ops.js'
import { sarcasm } from '../specs/sarcasm.js'

/** what the recipe trained and fitted, and what it read */
export interface SarcasmRun {
  bag: FeatureConfig
  sequence: SequenceConfig
  /** the shared word-vector table (a folder below model-store) */
  vectors: string
  vectorsDim: number
  trained: { heads: string[]; dim: number; filters: number; widths: number[]; scale: number }
  seed: number
  trainerArgs: string
  T: number
  bias: number[]
  data: ReturnType<OpSpec['data']>
  metrics: ModelManifest['metrics']
  /** the experiment notes, after the architecture */
  notes: string
}

/** the architecture, the training run and the temperature, in words */
function architectureOf (r: SarcasmRun): string {
  const { trained } = r
  return (
    `A hashed n-gram bag (dim ${trained.dim}, ${r.bag.buckets} buckets of word unigrams and bigrams; float16) ` +
    `beside a 1-D convolution over the words (${r.vectors}, frozen, ${r.vectorsDim} dimensions, ` +
    `times ${trained.scale}; ${r.sequence.oovBuckets} learned float16 rows for tokens the table lacks; ` +
    `${trained.filters} filters of widths ${trained.widths.join(', ')}, ReLU, max over positions), ` +
    `into one logit per head: served, ${trained.heads.slice(1).join(', ')}. ` +
    `Trained by training/trainers/text_cnn.py (PyTorch, seed ${r.seed}, ${r.trainerArgs}): ` +
    'the served head on every set (irony tweets, headlines, iSarcasmEval, forums, ordinary texts), ' +
    'each domain weighted as before; the irony, headlines and forums heads each on their own set ' +
    '(ordinary texts negative for all), shaping the shared encoder only. ' +
    `${r.data.train.length} training rows. ` +
    `The served logit divided by a temperature of ${r.T.toFixed(3)} plus a bias per label, ` +
    'fitted on half of the validation rows and folded into the output layer.'
  )
}

/** the sarcasm model's manifest.json (its version: 1; the caller sets it) */
export function sarcasmManifest (r: SarcasmRun): ModelManifest & { calibration: unknown } {
  const architecture = architectureOf(r)
  return {
    name: 'sarcasm',
    version: 1,
    kind: 'text-cnn',
    description: sarcasm.description,
    languages: ['en'],
    labels: sarcasm.labels,
    ...TWO_LABELS_IO,
    files: ['weights.json', 'weights.bin', `../../${r.vectors}`],
    training: {
      command: 'npm run train -- sarcasm',
      seed: r.seed,
      data: r.data.sources,
      notes: [architecture, r.notes].join(' ').trim()
    },
    calibration: {
      method: 'temperature scaling with a bias per label',
      temperature: Number(r.T.toFixed(4)),
      bias: r.bias
    },
    metrics: r.metrics,
    created: new Date().toISOString()
  }
}
