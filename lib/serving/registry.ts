// The model repository, after Triton's: model-store/<model>/<numeric version>/manifest.json.
// The highest version of each model is loaded with the loader its manifest `kind` names, and warmed
// with one prediction; a model that fails to load or warm fails start-up loudly.
// Text models run in a pool of worker threads (lib/text/pool/pool.ts) when TEXT_WORKERS > 0: each worker
// loads them with the same loaders, and the registry keeps a proxy per model that sends it jobs.
import type { ModelManifest } from '../../schemas/model-manifest.js'
import { RESOURCE_KINDS, scanAll, type ModelInfo } from './store-scan.js'
import type { LoadedModel, LoaderContext, ModelLoader } from './loaded-model.js'
import { getTf } from '../runtime/tf.js'
import { TextPool } from '../text/pool/pool.js'
import type { PoolModel } from '../text/pool/protocol.js'
import { DETECTOR, languagesOf, route, type RouteAsk, type Routed } from '../text/routing.js'
import type { Detection } from '../text/langid/langid.js'
import { folderKey, type SharedArray, type SharedArrays } from '../text/pool/shared-memory.js'

interface LoaderRef {
  module: string
  export: string
}
/** a kind's arrays that every text worker reads alike, made once on the main thread (lib/text/pool/shared-memory.ts) */
type Sharer = (dir: string) => Promise<Record<string, SharedArray>>

/** Loaders by manifest kind, imported only when a model of that kind is present. The image
 * loaders stay on the main thread: they are front ends to their own worker pool. */
const builtin: Record<string, LoaderRef & { mainThread?: true; share?: string }> = {
  'text-classifier': { module: '../text/bag/classifier.js', export: 'loadTextClassifier', share: 'shareClassifier' },
  'text-cnn': { module: '../text/cnn/classifier.js', export: 'loadCnnClassifier', share: 'shareCnnClassifier' },
  'human-face': { module: '../image/human.js', export: 'loadHumanFace', mainThread: true },
  'human-object': { module: '../image/human.js', export: 'loadHumanObject', mainThread: true },
  'nsfw-classifier': { module: '../image/human.js', export: 'loadNsfw', mainThread: true },
  'ner-tagger': { module: '../text/ner/tagger.js', export: 'loadNer', share: 'shareNer' },
  'keyword-ranker': { module: '../text/keywords/ranker.js', export: 'loadKeywords' },
  'language-id': { module: '../text/langid/langid.js', export: 'loadLanguageId', mainThread: true },
  'noun-phrases': { module: '../text/keywords/phrases.js', export: 'loadPhrases' },
  'zero-shot': { module: '../text/zero-shot.js', export: 'loadZeroShot' },
  // heads over the text encoder: on the main thread, where the one encoder of the process runs
  'encoder-head': { module: '../text/heads/classifier.js', export: 'loadEncoderHead', mainThread: true },
  'encoder-similarity': { module: '../text/heads/similarity.js', export: 'loadEncoderSimilarity', mainThread: true },
  'encoder-tuned-head': { module: '../text/heads/tuned.js', export: 'loadEncoderTunedHead', mainThread: true },
  'encoder-ner': { module: '../text/heads/ner.js', export: 'loadEncoderNer', mainThread: true },
  'encoder-keyphrases': { module: '../text/heads/keyphrases.js', export: 'loadEncoderKeyphrases', mainThread: true },
  // a blend of other models' scores: loaded after every other model, on the main thread
  blend: { module: '../text/heads/blend.js', export: 'loadBlend', mainThread: true }
}
export { scanStore, type ModelInfo } from './store-scan.js'
const extra = new Map<string, { loader: ModelLoader; from: LoaderRef | null }>()

/** Adds a loader for a kind (tests use it for tiny fixture models). A worker thread cannot be
 * handed a function, so the kind runs in the text workers only when `from` names where a worker
 * can import the same loader (a module address and its export); otherwise on the main thread. */
export function registerLoader (kind: string, loader: ModelLoader, from?: LoaderRef): void {
  extra.set(kind, { loader, from: from ?? null })
}

/** Where a text worker imports the loader of a kind, or null when the kind runs on the main thread. */
function workerLoader (kind: string): LoaderRef | null {
  const own = extra.get(kind)
  if (own !== undefined) return own.from
  const b = builtin[kind]
  if (b === undefined || b.mainThread === true) return null
  return { module: new URL(b.module, import.meta.url).href, export: b.export }
}

/** The function that makes a kind's shared arrays, or null when its workers share none. */
async function sharerFor (kind: string): Promise<Sharer | null> {
  const ref = RESOURCE_KINDS[kind] ?? builtin[kind]
  if (ref?.share === undefined || extra.has(kind)) return null
  const spec: string = ref.module
  const fn = ((await import(spec)) as Record<string, Sharer>)[ref.share]
  if (typeof fn !== 'function') throw new Error(`${ref.module} does not export ${ref.share}`)
  return fn
}

async function loaderFor (kind: string): Promise<ModelLoader> {
  const own = extra.get(kind)
  if (own !== undefined) return own.loader
  const b = builtin[kind]
  if (b === undefined) throw new Error(`no loader for model kind "${kind}"`)
  const spec: string = b.module
  const mod = (await import(spec)) as Record<string, ModelLoader>
  const fn = mod[b.export]
  if (typeof fn !== 'function') throw new Error(`${b.module} does not export ${b.export}`)
  return fn
}

/** workers: text worker threads (0: text models run on the main thread); queue: texts waiting for one */
export interface PoolSettings {
  workers: number
  queue: number
}
/** what loadAll loads: the text worker pool, and model folders left out (MODELS_OFF) */
export interface LoadSettings extends PoolSettings {
  off?: readonly string[]
}

/**
 * Requests of up to this many texts whose languages are to be detected are detected in the text worker that
 * classifies them, in the same message; larger ones on the main thread, as the workers classify others meanwhile:
 * a large batch's detection would take the worker, the bottleneck for large batches, twice as long
 * (docs/performance.md).
 */
const DETECT_IN_WORKERS_MAX = 32

export class ModelRegistry {
  private readonly models = new Map<string, LoadedModel<any, any>>()
  backend: string | null = null
  /** the text worker pool, when text models run in workers */
  textPool: TextPool | null = null
  /** the models that run in the text workers */
  private readonly pooled = new Set<string>()

  async loadAll (
    root: string,
    log: (msg: string) => void,
    ctx: LoaderContext,
    pool: LoadSettings = { workers: 0, queue: 0 }
  ): Promise<void> {
    const all = (await scanAll(root)).filter(info => pool.off?.includes(info.name) !== true)
    // a shared resource (the word-vector table) is read by the models that name it, not served
    const found = all.filter(info => !(info.manifest.kind in RESOURCE_KINDS))
    if (found.length === 0) return
    const { tf, backend } = await getTf(ctx.tfBackend)
    this.backend = backend
    const pooled = new Map<string, PoolModel>()
    if (pool.workers > 0) {
      for (const info of found) {
        const loader = workerLoader(info.manifest.kind)
        if (loader !== null) pooled.set(info.name, { ...info, loader })
      }
    }
    if (pooled.size > 0) await this.startTextPool(pooled, all, found, pool, ctx, log)
    const isBlend = (i: ModelInfo) => i.manifest.kind === 'blend'
    const blendsLast = [...found.filter(i => !isBlend(i)), ...found.filter(isBlend)]
    const withModels: LoaderContext = { ...ctx, model: name => this.models.get(name) }
    for (const info of blendsLast) {
      const t0 = performance.now()
      const remote = pooled.get(info.name)
      if (remote !== undefined) {
        this.models.set(info.name, this.proxy(info.name, info.manifest))
        this.pooled.add(info.name)
        continue
      }
      try {
        const loader = await loaderFor(info.manifest.kind)
        const model = await loader(info.dir, info.manifest, tf, withModels)
        if (model.warm !== undefined) await model.warm()
        else await model.predict(['warm up'])
        this.models.set(info.name, model)
      } catch (err) {
        // the workers already running would keep the process alive after a failed start
        await this.close()
        throw new Error(`model ${info.name} v${info.version} failed to load or warm up: ${(err as Error).message}`, {
          cause: err
        })
      }
      log(
        `model ${info.name} v${info.version} (${info.manifest.kind}) loaded and warmed in ` +
          `${Math.round(performance.now() - t0)} ms`
      )
    }
  }

  /**
   * Starts the text workers, each holding the pooled models and the language identifier, with one copy in shared
   * memory of what they read alike.
   */
  private async startTextPool (
    pooled: Map<string, PoolModel>,
    all: ModelInfo[],
    found: ModelInfo[],
    pool: LoadSettings,
    ctx: LoaderContext,
    log: (msg: string) => void
  ): Promise<void> {
    const t0 = performance.now()
    // one copy in shared memory of what every worker reads alike (embedding tables, word vectors,
    // NER weights)
    const shared: SharedArrays = {}
    for (const info of [...pooled.values(), ...all.filter(i => i.manifest.kind in RESOURCE_KINDS)]) {
      const share = await sharerFor(info.manifest.kind)
      if (share !== null) shared[folderKey(info.dir)] = await share(info.dir)
    }
    // the language identifier runs on the main thread (language_detection), and in the workers too,
    // so that a text whose language is to be detected crosses to a worker once (runRouted)
    const lid = found.find(info => info.manifest.kind === 'language-id' && !extra.has('language-id'))
    const detector =
      lid === undefined
        ? undefined
        : {
            ...lid,
            loader: {
              module: new URL(builtin['language-id']!.module, import.meta.url).href,
              export: builtin['language-id']!.export
            }
          }
    const textPool = new TextPool({
      size: pool.workers,
      maxQueue: pool.queue,
      models: [...pooled.values()],
      ...(detector === undefined ? {} : { detector }),
      ctx: { ...ctx, shared },
      log
    })
    // a worker's message already names the model that failed and its version
    await textPool.start()
    this.textPool = textPool
    this.backend = textPool.backend
    log(
      `${pooled.size} text models loaded and warmed in each of ${pool.workers} worker threads ` +
        `(${textPool.bundled ? 'bundled JS' : 'TypeScript sources'}) in ${Math.round(performance.now() - t0)} ms`
    )
  }

  /** The main thread's face of a model that runs in the text workers (which warmed it already). */
  private proxy (name: string, manifest: ModelManifest): LoadedModel<unknown, unknown> {
    const pool = this.textPool as TextPool
    return { manifest, predict: inputs => pool.run(name, inputs), async warm () {}, dispose () {} }
  }

  /**
   * Texts routed by language through an operation's models (lib/text/routing.ts): in a text worker when the workers
   * hold them all, detecting there too for requests of up to DETECT_IN_WORKERS_MAX texts; here otherwise.
   */
  async route (texts: string[], ask: RouteAsk): Promise<Routed[]> {
    const pool = this.textPool
    const detector = this.models.get(DETECTOR) as LoadedModel<string, Detection> | undefined
    if (pool === null || !this.routesInWorkers(ask.models)) {
      return route(texts, ask, name => this.models.get(name), detector)
    }
    if (ask.langs !== undefined || (pool.detects && texts.length <= DETECT_IN_WORKERS_MAX)) {
      return pool.runRouted(texts, ask)
    }
    return pool.runRouted(texts, { ...ask, langs: await languagesOf(texts, undefined, detector, ask.served) })
  }

  /** Whether texts routed through these models go to a text worker (which holds them all). */
  routesInWorkers (models: readonly string[]): boolean {
    return this.textPool !== null && models.every(n => this.pooled.has(n))
  }

  get<In = string, Out = number[]>(name: string): LoadedModel<In, Out> | undefined {
    return this.models.get(name)
  }

  list (): LoadedModel<unknown, unknown>[] {
    return [...this.models.values()]
  }

  /** Disposes every model and stops the text workers. */
  async close (): Promise<void> {
    for (const m of this.models.values()) m.dispose()
    this.models.clear()
    const pool = this.textPool
    this.textPool = null
    await pool?.close()
  }
}
