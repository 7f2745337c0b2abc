// A text worker: loads every model it is given with the same loader the main thread would use
// (by manifest kind, passed as a module address and export name), warms each one, then answers
// predict jobs one at a time. Inputs and outputs cross the thread boundary by structured clone,
// so any model whose inputs and outputs are plain data can run here.
import { parentPort, workerData } from 'node:worker_threads'
import type { LoadedModel, ModelLoader } from '../models.js'
import { getTf } from '../tf.js'
import { adoptShared } from './shared-memory.js'
import type { TextJob, TextReply, WorkerInit, WorkerStatus } from './pool.js'

const init = workerData as WorkerInit
const port = parentPort!
const models = new Map<string, LoadedModel<unknown, unknown>>()

try {
  const { tf, backend } = await getTf(init.ctx.tfBackend)
  adoptShared(init.ctx.shared)
  for (const m of init.models) {
    const mod = await import(m.loader.module) as Record<string, ModelLoader>
    const load = mod[m.loader.export]
    if (typeof load !== 'function') throw new Error(`${m.loader.module} does not export ${m.loader.export}`)
    let model: LoadedModel<unknown, unknown>
    try {
      model = await load(m.dir, m.manifest, tf, init.ctx)
      if (model.warm !== undefined) await model.warm()
      else await model.predict(['warm up'])
    } catch (err) {
      throw new Error(`model ${m.name} v${m.version} failed to load or warm up in a text worker: ${(err as Error).message}`, { cause: err })
    }
    models.set(m.name, model)
  }
  // one job at a time, in the order they came: the pool may send the next before this one ends
  let last: Promise<void> = Promise.resolve()
  port.on('message', (job: TextJob) => { last = last.then(() => run(job)) })
  port.postMessage({ ready: true, backend, tensors: tf.memory().numTensors } satisfies WorkerStatus)

  async function run (job: TextJob): Promise<void> {
    let reply: TextReply
    try {
      const model = models.get(job.model)
      if (model === undefined) throw new Error(`no model ${job.model} in this worker`)
      reply = { id: job.id, outputs: await model.predict(job.inputs), tensors: tf.memory().numTensors }
    } catch (err) {
      reply = { id: job.id, error: (err as Error).message ?? String(err), tensors: tf.memory().numTensors }
    }
    try {
      port.postMessage(reply)
    } catch (err) {
      // an output that cannot be cloned (a function, a tensor) is the loader's bug: say so, not hang
      port.postMessage({ id: job.id, error: `the output of ${job.model} cannot be sent between threads: ${(err as Error).message}`, tensors: reply.tensors } satisfies TextReply)
    }
  }
} catch (err) {
  port.postMessage({ ready: false, error: (err as Error).message ?? String(err) } satisfies WorkerStatus)
}
