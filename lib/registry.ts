// The model repository, after Triton's: model-store/<model>/<numeric version>/manifest.json.
// The highest version of each model is loaded with the loader its manifest `kind` names, and warmed
// with one prediction; a model that fails to load or warm fails start-up loudly.
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { Value } from '@sinclair/typebox/value'
import { ModelManifest } from '../schemas/model-manifest.js'
import type { LoadedModel, LoaderContext, ModelLoader } from './models.js'
import { getTf } from './tf.js'
import { microBatched } from './microbatch.js'

/** Loaders by manifest kind, imported only when a model of that kind is present. */
const builtin: Record<string, { module: string, export: string }> = {
  'text-classifier': { module: './text/classifier.js', export: 'loadTextClassifier' },
  'human-face': { module: './image/human.js', export: 'loadHumanFace' },
  'human-object': { module: './image/human.js', export: 'loadHumanObject' },
  'ner-tagger': { module: './text/ner.js', export: 'loadNer' },
  'keyword-ranker': { module: './text/keywords.js', export: 'loadKeywords' },
  'similarity-pairs': { module: './text/similarity.js', export: 'loadSimilarity' }
}
const extra = new Map<string, ModelLoader>()

/** Adds a loader for a kind (tests use it for tiny fixture models). */
export function registerLoader (kind: string, loader: ModelLoader): void {
  extra.set(kind, loader)
}

async function loaderFor (kind: string): Promise<ModelLoader> {
  const own = extra.get(kind)
  if (own !== undefined) return own
  const b = builtin[kind]
  if (b === undefined) throw new Error(`no loader for model kind "${kind}"`)
  const spec: string = b.module
  const mod = await import(spec) as Record<string, ModelLoader>
  const fn = mod[b.export]
  if (typeof fn !== 'function') throw new Error(`${b.module} does not export ${b.export}`)
  return fn
}

export interface ModelInfo { name: string, version: number, dir: string, manifest: ModelManifest }

/** Finds the highest version of each model folder; validates its manifest. */
export async function scanStore (root: string): Promise<ModelInfo[]> {
  let names: string[]
  try { names = await readdir(root) } catch { return [] }
  const out: ModelInfo[] = []
  for (const name of names.sort()) {
    const modelDir = join(root, name)
    if (!(await stat(modelDir)).isDirectory()) continue
    const versions = (await readdir(modelDir)).filter((v) => /^\d+$/.test(v)).map(Number).sort((a, b) => b - a)
    for (const version of versions) {
      const dir = join(modelDir, String(version))
      let raw: string
      try { raw = await readFile(join(dir, 'manifest.json'), 'utf8') } catch { continue }
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

export class ModelRegistry {
  private readonly models = new Map<string, LoadedModel<any, any>>()
  backend: string | null = null

  async loadAll (root: string, log: (msg: string) => void, ctx: LoaderContext): Promise<void> {
    const found = await scanStore(root)
    if (found.length === 0) return
    const { tf, backend } = await getTf()
    this.backend = backend
    for (const info of found) {
      const t0 = performance.now()
      try {
        const loader = await loaderFor(info.manifest.kind)
        let model = await loader(info.dir, info.manifest, tf, ctx)
        if (info.manifest.kind === 'text-classifier') model = microBatched(model, ctx.microBatchWaitMs ?? 0, 256)
        if (model.warm !== undefined) await model.warm()
        else await model.predict(['warm up'])
        this.models.set(info.name, model)
      } catch (err) {
        throw new Error(`model ${info.name} v${info.version} failed to load or warm up: ${(err as Error).message}`, { cause: err })
      }
      log(`model ${info.name} v${info.version} (${info.manifest.kind}) loaded and warmed in ${Math.round(performance.now() - t0)} ms`)
    }
  }

  get<In = string, Out = number[]> (name: string): LoadedModel<In, Out> | undefined {
    return this.models.get(name)
  }

  list (): LoadedModel<unknown, unknown>[] {
    return [...this.models.values()]
  }

  dispose (): void {
    for (const m of this.models.values()) m.dispose()
    this.models.clear()
  }
}
