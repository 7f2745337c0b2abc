// The loaders of the text-classifier kinds by manifest kind, for the tools that load a classifier
// by itself (npm run eval, the calibration by input, eval/speed.ts); the service finds them through
// lib/registry.ts.
import type { ModelLoader } from '../models.js'
import { loadTextClassifier } from './classifier.js'
import { loadCnnClassifier } from './cnn-classifier.js'
import { loadEncoderHead } from './heads/classifier.js'

const LOADERS: Readonly<Record<string, ModelLoader>> = {
  'text-classifier': loadTextClassifier,
  'text-cnn': loadCnnClassifier,
  'encoder-head': loadEncoderHead
}

/** the loader of a text classifier's kind; undefined for a model of another kind */
export const classifierLoader = (kind: string): ModelLoader | undefined => LOADERS[kind]

/** the loader of a text classifier's kind; throws for a model of another kind */
export function loaderOfClassifier (kind: string): ModelLoader {
  const load = LOADERS[kind]
  if (load === undefined) throw new Error(`a model of kind ${kind} is not a text classifier (${Object.keys(LOADERS).join(', ')})`)
  return load
}
