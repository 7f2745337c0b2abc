// The fixture models with a few test hooks, importable by a text worker (which cannot be handed
// a function): a text that ends the worker thread, one that keeps it busy, and a model that loads
// on the main thread but not in a worker.
import { isMainThread } from 'node:worker_threads'
import type { LoadedModel, ModelLoader } from '../../../../lib/serving/loaded-model.js'
import { fixtureLoader } from '../../../fixtures/loader.js'

export const CRASH = 'crash the worker'
export const SLOW = 'take your time'
/** a text that keeps its worker busy for 5 ms: many make a batch that outlasts a short deadline */
export const TICK = 'wait a moment'

const textOf = (input: unknown): unknown =>
  typeof input === 'object' && input !== null ? (input as { text?: unknown }).text : input

export const poolFixtureLoader: ModelLoader = async (dir, manifest, tf, ctx) => {
  if (manifest.name === 'broken' && !isMainThread) throw new Error('this fixture refuses to load in a worker')
  const inner = await fixtureLoader(dir, manifest, tf, ctx)
  const model: LoadedModel<unknown, unknown> = {
    manifest,
    async predict (inputs) {
      for (const input of inputs) {
        const text = textOf(input)
        // process.exit in a worker thread ends that thread only
        if (text === CRASH && !isMainThread) process.exit(3)
        const busy = text === SLOW ? 400 : text === TICK ? 5 : 0
        const until = Date.now() + busy
        while (Date.now() < until) {
          /* busy */
        }
      }
      return inner.predict(inputs)
    },
    dispose: () => inner.dispose()
  }
  if (inner.warm !== undefined) {
    model.warm = async () => {
      await inner.warm!.call(model)
    }
  }
  return model
}

export const POOL_FIXTURE = { module: new URL('./pool-fixture.ts', import.meta.url).href, export: 'poolFixtureLoader' }

/**
 * A probe of the process's shared arrays: given "<folder>|<name>", it answers where the loaders of
 * its thread find that array (the process's SharedArrayBuffer or a copy of the thread's own).
 */
export const sharedProbeLoader: ModelLoader = async (_dir, manifest) => ({
  manifest,
  async predict (inputs: unknown[]) {
    return await Promise.all(
      inputs.map(async x => {
        const [folder, name] = String(textOf(x)).split('|') as [string, string]
        const { shared } = await import('../../../../lib/text/pool/shared-memory.js')
        const a = await shared(folder, name, Object.getPrototypeOf(Int8Array) as never, () => new Uint8Array(1))
        return a.buffer.constructor.name
      })
    )
  },
  async warm () {},
  dispose () {}
})

export const SHARED_PROBE = { module: new URL('./pool-fixture.ts', import.meta.url).href, export: 'sharedProbeLoader' }
