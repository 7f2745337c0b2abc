// The model repository's folders: model-store/<model>/<numeric version>/manifest.json, the highest version of each
// folder with a manifest that validates.
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { Value } from '@sinclair/typebox/value'
import { ModelManifest } from '../../schemas/model-manifest.js'

/**
 * kinds of model-store folder that hold data other models read, not a model of their own, and what their readers
 * share
 */
export const RESOURCE_KINDS: Record<string, { module: string; share?: string }> = {
  'word-vectors': { module: '../text/words/vectors.js', share: 'shareWordVectors' },
  // the text encoder, read by the heads that name it (lib/text/encoder/)
  'text-encoder': { module: '../text/encoder/encoder.js' }
}

export interface ModelInfo {
  name: string
  version: number
  dir: string
  manifest: ModelManifest
}

/** Finds the highest version of each model folder; validates its manifest. */
export async function scanStore (root: string): Promise<ModelInfo[]> {
  return (await scanAll(root)).filter(info => !(info.manifest.kind in RESOURCE_KINDS))
}

/** scanStore's folders and the shared resources (the word-vector table) other models read */
export async function scanAll (root: string): Promise<ModelInfo[]> {
  let names: string[]
  try {
    names = await readdir(root)
  } catch {
    return []
  }
  const out: ModelInfo[] = []
  for (const name of names.sort()) {
    const modelDir = join(root, name)
    if (!(await stat(modelDir)).isDirectory()) continue
    const versions = (await readdir(modelDir))
      .filter(v => /^\d+$/.test(v))
      .map(Number)
      .sort((a, b) => b - a)
    for (const version of versions) {
      const dir = join(modelDir, String(version))
      let raw: string
      try {
        raw = await readFile(join(dir, 'manifest.json'), 'utf8')
      } catch {
        continue
      }
      const manifest: unknown = JSON.parse(raw)
      if (!Value.Check(ModelManifest, manifest)) {
        const e = [...Value.Errors(ModelManifest, manifest)][0]
        throw new Error(`${join(name, String(version), 'manifest.json')}: invalid at ${e?.path}: ${e?.message}`)
      }
      out.push({ name, version, dir, manifest })
      break
    }
  }
  return out
}
