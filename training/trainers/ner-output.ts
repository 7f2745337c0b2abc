// What NER training (training/recipes/ner.ts) gathers language by language for model-store/ner/1: the
// weights as the served tagger reads them, and the manifest's training data, metrics and notes with the
// confidence temperature and thresholds of each language.
import { LEXICON_SIZE, NAME_KINDS, type NounForms } from '../../lib/text/ner/features.js'
import { NUM_LABELS } from '../../lib/text/ner/labels.js'
import { BUCKETS } from './ner-settings.js'

export interface WeightSpec {
  name: string
  shape: number[]
  dtype: 'float32' | 'int32'
  quantization?: { dtype: 'uint8'; scale: number; min: number }
}
export interface DataRow {
  name: string
  path: string
  licence: string
  split: string
  rows: number
}
export interface MetricRow {
  dataset: string
  split: string
  metric: string
  value: number
  baseline: string
}

export class NerOutput {
  readonly weightSpecs: WeightSpec[] = []
  readonly buffers: Buffer[] = []
  readonly metrics: MetricRow[] = []
  readonly notes: string[] = []
  readonly temperature: Record<string, number> = {}
  readonly minConfidence: Record<string, number[]> = {}
  readonly caseless: string[] = []
  readonly data: DataRow[] = []

  weight (spec: WeightSpec, data: ArrayBufferView): void {
    this.weightSpecs.push(spec)
    this.buffers.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength))
  }

  /**
   * A language's weights, as the served tagger reads them (lib/text/ner/tagger.ts readLanguage): the uint8
   * emission table, the lexicon, the transitions, and the noun forms' and name lists' hashes (int32).
   */
  saveLanguage (
    lang: string,
    emissions: { bytes: Uint8Array; scale: number; min: number },
    lexicon: Uint8Array | undefined,
    transitions: Float32Array,
    nouns: NounForms | undefined
  ): void {
    this.weight(
      {
        name: `${lang}/emissions`,
        shape: [BUCKETS, NUM_LABELS],
        dtype: 'float32',
        quantization: { dtype: 'uint8', scale: emissions.scale, min: emissions.min }
      },
      emissions.bytes
    )
    if (lexicon !== undefined) {
      this.weight(
        {
          name: `${lang}/lexicon`,
          shape: [LEXICON_SIZE],
          dtype: 'float32',
          quantization: { dtype: 'uint8', scale: 1, min: 0 }
        },
        lexicon
      )
    }
    this.weight({ name: `${lang}/transitions`, shape: [NUM_LABELS + 1, NUM_LABELS], dtype: 'float32' }, transitions)
    if (nouns === undefined) return
    this.weight({ name: `${lang}/nouns`, shape: [nouns.hashes.length], dtype: 'int32' }, nouns.hashes)
    if (nouns.names !== undefined) {
      for (const k of NAME_KINDS) {
        this.weight({ name: `${lang}/names-${k}`, shape: [nouns.names[k].length], dtype: 'int32' }, nouns.names[k])
      }
    }
  }
}
