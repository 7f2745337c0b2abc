// A text worker: loads every model it is given with the same loader the main thread would use
// (by manifest kind, passed as a module address and export name), warms each one, then answers
// predict jobs one at a time, a routed job's texts by language (lib/text/routing.ts). Inputs and
// outputs cross the thread boundary by structured clone, so any model whose inputs and outputs are
// plain data can run here.
import { parentPort, workerData } from 'node:worker_threads'
import type { LoadedModel, ModelLoader } from '../../serving/loaded-model.js'
import { getTf } from '../../runtime/tf.js'
import { adoptShared } from './shared-memory.js'
import type { Detection } from '../langid/langid.js'
import { route } from '../routing.js'
import { CANCELLED } from './protocol.js'
import type { PoolModel, TextCancel, TextJob, TextReply, WorkerInit, WorkerStatus } from './protocol.js'

const init = workerData as WorkerInit
const port = parentPort!
const models = new Map<string, LoadedModel<unknown, unknown>>()

try {
  const { tf, backend } = await getTf(init.ctx.tfBackend)
  adoptShared(init.ctx.shared)
  for (const m of init.models) models.set(m.name, await load(m))
  const detector =
    init.detector === undefined ? undefined : ((await load(init.detector)) as LoadedModel<string, Detection>)

  async function load (m: PoolModel): Promise<LoadedModel<unknown, unknown>> {
    const mod = (await import(m.loader.module)) as Record<string, ModelLoader>
    const loader = mod[m.loader.export]
    if (typeof loader !== 'function') throw new Error(`${m.loader.module} does not export ${m.loader.export}`)
    let model: LoadedModel<unknown, unknown>
    try {
      model = await loader(m.dir, m.manifest, tf, init.ctx)
      if (model.warm !== undefined) await model.warm()
      else await model.predict(['warm up'])
    } catch (err) {
      throw new Error(
        `model ${m.name} v${m.version} failed to load or warm up in a text worker: ${(err as Error).message}`,
        { cause: err }
      )
    }
    return model
  }
  // one job at a time, in the order they came: the pool may send the next before this one ends,
  // and may then say that it no longer wants it (TextCancel)
  let last: Promise<void> = Promise.resolve()
  const cancelled = new Set<number>()
  port.on('message', (msg: TextJob | TextCancel) => {
    if ('cancel' in msg) {
      // a cancel can cross the reply of a job already done: the oldest are forgotten
      cancelled.add(msg.cancel)
      if (cancelled.size > 1_000) cancelled.delete(cancelled.values().next().value as number)
      return
    }
    last = last.then(() => run(msg))
  })
  // the messages that arrived while the last job ran are read before the next starts
  const readMessages = () => new Promise<void>(resolve => setImmediate(resolve))
  port.postMessage({ ready: true, backend, tensors: tf.memory().numTensors } satisfies WorkerStatus)

  async function run (job: TextJob): Promise<void> {
    let reply: TextReply
    if (job.behind === true) await readMessages()
    if (cancelled.delete(job.id)) {
      port.postMessage({ id: job.id, error: CANCELLED, tensors: tf.memory().numTensors } satisfies TextReply)
      return
    }
    try {
      let outputs: unknown[]
      if (job.route !== undefined) {
        outputs = await route(job.inputs as string[], job.route, name => models.get(name), detector)
      } else {
        const model = models.get(job.model)
        if (model === undefined) throw new Error(`no model ${job.model} in this worker`)
        outputs = await model.predict(job.inputs)
      }
      reply = { id: job.id, outputs, tensors: tf.memory().numTensors }
    } catch (err) {
      reply = { id: job.id, error: (err as Error).message ?? String(err), tensors: tf.memory().numTensors }
    }
    try {
      port.postMessage(reply)
    } catch (err) {
      // an output that cannot be cloned (a function, a tensor) is the loader's bug: say so, not hang
      port.postMessage({
        id: job.id,
        error: `the output of ${job.model} cannot be sent between threads: ${(err as Error).message}`,
        tensors: reply.tensors
      } satisfies TextReply)
    }
  }
} catch (err) {
  port.postMessage({ ready: false, error: (err as Error).message ?? String(err) } satisfies WorkerStatus)
}
