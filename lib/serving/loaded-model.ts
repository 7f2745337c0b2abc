// What the model registry hands to operation plugins. Every loader returns a LoadedModel;
// predict() takes a batch (a single text is a batch of one) and returns one result per input.
import type { ModelManifest } from '../../schemas/model-manifest.js'
import type { SharedArrays } from '../text/pool/shared-memory.js'
import type { TF, TfBackend } from '../runtime/tf.js'
import type { FaceCrop } from '../image/expression.js'
import type { EncoderOptions } from '../text/encoder/encoder.js'

export interface LoadedModel<In = string, Out = number[]> {
  manifest: ModelManifest
  /** one result per input, in input order */
  predict(inputs: In[]): Promise<Out[]>
  /** a first prediction on a representative input; the registry calls predict(['warm up']) without it */
  warm?(): Promise<void>
  dispose(): void
}

/** A loader turns a model version folder into a LoadedModel. Registered per manifest `kind`. */
export interface LoaderContext {
  imageMaxPixels: number
  /** the image workers (the configuration's; its defaults when not given) */
  image?: ImageSettings
  /** the TensorFlow.js backend (auto when not given) */
  tfBackend?: TfBackend
  /**
   * arrays the text workers read alike (embedding tables, word vectors, NER weights...), by model folder
   * (lib/text/pool/shared-memory.ts)
   */
  shared?: SharedArrays
  /** the text encoder's threads, batch and cache (lib/text/heads/classifier.ts DEFAULT_ENCODER when not given) */
  encoder?: EncoderOptions
  /** a model loaded before this one, by folder name (a blend reads its members through it) */
  model?: (name: string) => LoadedModel<any, any> | undefined
}
/**
 * image worker threads, images waiting for one, labels object_recognizer answers, facial_emotion's crop for face-api
 * (lib/image/expression.ts)
 */
export interface ImageSettings {
  workers: number
  queue: number
  objectTop: number
  facialEmotionCrop?: FaceCrop
}
export type ModelLoader = (
  dir: string,
  manifest: ModelManifest,
  tf: TF,
  ctx: LoaderContext
) => Promise<LoadedModel<any, any>>
