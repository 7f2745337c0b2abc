// The loader of kind encoder-head: a classifier that is a head over the shared text encoder. The
// manifest's files name the encoder's folder (read once per process) and the head's two files.
import { readFile, realpath } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { join } from 'node:path'
import type { LoadedModel, LoaderContext } from '../../serving/loaded-model.js'
import type { ModelManifest } from '../../../schemas/model-manifest.js'
import { loadEncoder, type EncoderOptions, type TextEncoder } from '../encoder/encoder.js'
import { Head, type HeadSpec } from './head.js'

export const DEFAULT_ENCODER: EncoderOptions = {
  threads: Math.min(4, availableParallelism()),
  maxBatch: 64,
  cacheSize: 4096
}

/** The encoder a model's manifest names (its first file that is a folder of model-store), found from
 * the real folder of the model (a store of links, as the tests make, holds the model alone). */
export async function encoderOf (dir: string, manifest: ModelManifest, ctx: LoaderContext): Promise<TextEncoder> {
  const folder = manifest.files.find(f => f.startsWith('../'))
  if (folder === undefined) throw new Error(`${manifest.name}: the manifest names no encoder folder`)
  return await loadEncoder(await realpath(join(await realpath(dir), folder)), ctx.encoder ?? DEFAULT_ENCODER)
}

export async function readHead (dir: string): Promise<Head> {
  const spec = JSON.parse(await readFile(join(dir, 'head.json'), 'utf8')) as HeadSpec
  return Head.fromBytes(spec, await readFile(join(dir, 'head.bin')))
}

export async function loadEncoderHead (
  dir: string,
  manifest: ModelManifest,
  _tf: unknown,
  ctx: LoaderContext
): Promise<LoadedModel<string, number[]>> {
  const encoder = await encoderOf(dir, manifest, ctx)
  const head = await readHead(dir)
  const labels = head.spec.layers.at(-1)?.out
  if (labels !== manifest.labels.length) {
    throw new Error(`${manifest.name}: the head gives ${labels} scores for ${manifest.labels.length} labels`)
  }
  return {
    manifest,
    async predict (texts) {
      const vectors = await encoder.embed(texts)
      return vectors.map(v => head.scores(v))
    },
    dispose () {}
  }
}
