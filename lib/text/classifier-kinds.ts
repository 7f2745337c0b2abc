// The loaders of the text-classifier kinds by manifest kind, for the tools that load a classifier
// by itself (npm run eval, the calibration by input, eval/speed.ts); the service finds them through
// lib/serving/registry.ts.
import { join } from 'node:path'
import type { LoadedModel, ModelLoader } from '../serving/loaded-model.js'
import { loadTextClassifier } from './bag/classifier.js'
import { loadCnnClassifier } from './cnn/classifier.js'
import { loadEncoderHead } from './heads/classifier.js'
import { loadEncoderTunedHead } from './heads/tuned.js'
import { blendOf, loadBlend } from './heads/blend.js'
import { scanStore } from '../serving/registry.js'

/** A blend loaded by itself: its members from the folders beside it, each with its own loader. */
const loadBlendAlone: ModelLoader = async (dir, manifest, tf, ctx) => {
  const store = await scanStore(join(dir, '..', '..'))
  const members = new Map<string, LoadedModel<any, any>>()
  for (const { model } of blendOf(manifest)?.members ?? []) {
    const info = store.find(i => i.name === model)
    const load = info === undefined ? undefined : LOADERS[info.manifest.kind]
    if (info === undefined || load === undefined) throw new Error(`blend ${manifest.name}: no classifier ${model}`)
    members.set(model, await load(info.dir, info.manifest, tf, ctx))
  }
  const blend = await loadBlend(dir, manifest, tf, { ...ctx, model: name => members.get(name) })
  return {
    ...blend,
    dispose: () => {
      for (const m of members.values()) m.dispose()
    }
  }
}

const LOADERS: Readonly<Record<string, ModelLoader>> = {
  'text-classifier': loadTextClassifier,
  'text-cnn': loadCnnClassifier,
  'encoder-head': loadEncoderHead,
  'encoder-tuned-head': loadEncoderTunedHead,
  blend: loadBlendAlone
}

/** the loader of a text classifier's kind; undefined for a model of another kind */
export const classifierLoader = (kind: string): ModelLoader | undefined => LOADERS[kind]

/** the loader of a text classifier's kind; throws for a model of another kind */
export function loaderOfClassifier (kind: string): ModelLoader {
  const load = LOADERS[kind]
  if (load === undefined) {
    throw new Error(`a model of kind ${kind} is not a text classifier (${Object.keys(LOADERS).join(', ')})`)
  }
  return load
}
