// The text workers' code bundled (lib/text/pool/pool.ts compile): the worker (lib/text/pool/worker.ts) and
// its models' loaders as plain JS (lib/runtime/worker-build.ts), which a worker runs without the tsx loader.
import type { PoolModel } from './protocol.js'
import { compileWorkers } from '../../runtime/worker-build.js'

/**
 * The bundled worker, and a model as the workers load it bundled (its loader the bundled module), when
 * every loader of `all` is a local module; undefined otherwise. Rejects when bundling fails.
 */
export async function bundledWorkers (
  all: PoolModel[]
): Promise<{ entry: URL; bundled: (m: PoolModel) => PoolModel } | undefined> {
  const worker = new URL('./worker.ts', import.meta.url).href
  const loaders = [...new Set(all.map(m => m.loader.module))]
  if (loaders.some(m => !m.startsWith('file:'))) return undefined
  const built = await compileWorkers([worker, ...loaders])
  return {
    entry: built.get(worker) as URL,
    bundled: (m: PoolModel): PoolModel => ({
      ...m,
      loader: { ...m.loader, module: (built.get(m.loader.module) as URL).href }
    })
  }
}
