// weights.json of the word-order classifier (lib/text/cnn/classifier.ts): its configuration and the
// tensors of weights.bin, read by the classifier and by the inputs of its parts (lib/text/cnn/inputs.ts).
import type { FeatureConfig } from '../bag/features.js'
import type { SequenceConfig } from './tokens.js'
import type { PartsConfig } from './parts.js'

export interface CnnTensor {
  name: string
  shape: number[]
  dtype: 'float16' | 'float32'
}
/** weights.json: the model's configuration and the tensors of weights.bin, in file order */
export interface CnnWeightsJson {
  /** the hashed n-gram bag's features (absent: no bag) */
  bag?: FeatureConfig
  sequence: SequenceConfig
  /** the shared word-vector table (a folder below model-store, e.g. word-vectors/1) */
  vectors: string
  /** the table's vectors are multiplied by this */
  vectorScale: number
  /** filters per width */
  filters: number
  widths: number[]
  /**
   * the word-vector input (these features' lib/text/bag/sentence-input.ts) through `hidden` ReLU units
   * (mean.kernel [hidden, input], mean.bias); none when absent
   */
  mean?: { features: FeatureConfig; hidden: number }
  /** softmax over the labels (absent), or an independent sigmoid per label */
  output?: 'softmax' | 'sigmoid'
  /**
   * a text longer than parts.words words is read in parts, its logits the mean of theirs
   * (lib/text/cnn/parts.ts); absent: read whole
   */
  parts?: PartsConfig
  /**
   * bag (float16, [buckets, dim]), oov (float16, [oovBuckets, vector dim]), optionally proj.kernel
   * ([proj, vector dim]), conv<k>.kernel ([filters, proj or vector dim, k]), conv<k>.bias,
   * out.kernel ([labels, width]), out.bias
   */
  tensors: CnnTensor[]
}
