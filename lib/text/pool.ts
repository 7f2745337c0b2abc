// The text worker pool: every worker thread loads every text model, so any worker can take any
// job. A predict call becomes one or more jobs (a large batch is cut into chunks so that it spreads
// over the workers); jobs go to an idle worker or wait in a queue bounded in texts, and a call that
// would overflow it is refused with a 503 and Retry-After (load shedding), as the image pool does.
// A worker that dies fails only the job it was running, and is replaced.
import { Worker } from 'node:worker_threads'
import type { ModelManifest } from '../../schemas/model-manifest.js'
import { Errors, withHeaders } from '../errors.js'
import type { LoaderContext } from '../models.js'

/** A model as a worker loads it: the loader is named by module address and export, not passed. */
export interface PoolModel { name: string, version: number, dir: string, manifest: ModelManifest, loader: { module: string, export: string } }
export interface WorkerInit { models: PoolModel[], ctx: LoaderContext }
export interface TextJob { id: number, model: string, inputs: unknown[] }
export type TextReply = { id: number, outputs: unknown[], tensors: number } | { id: number, error: string, tensors: number }
export type WorkerStatus = { ready: true, backend: string, tensors: number } | { ready: false, error: string }

export interface TextPoolOptions {
  size: number
  /** texts waiting for a worker; a call that would pass it is refused (one call is always let in) */
  maxQueue: number
  models: PoolModel[]
  ctx: LoaderContext
  log?: (msg: string) => void
}

interface Job { msg: TextJob, resolve: (rows: unknown[]) => void, reject: (e: Error) => void }
interface Slot { worker: Worker, busy: Job | null, ready: boolean, gone: boolean, tensors: number }

// Chunks small enough to share a batch between workers, big enough that a message round trip
// (well under a millisecond) stays small beside the inference it carries.
const MIN_CHUNK = 32
const MAX_CHUNK = 256

export class TextPool {
  private readonly slots: Slot[] = []
  private readonly queue: Job[] = []
  private queued = 0
  private nextId = 1
  private closed = false
  private retryMs = 1000
  backend = 'unknown'
  /** workers replaced after dying (for tests and diagnostics) */
  replaced = 0
  /** jobs handed to workers so far */
  jobs = 0

  constructor (private readonly opts: TextPoolOptions) {}

  /** Starts every worker; resolves once each has loaded and warmed every model, else rejects. */
  async start (): Promise<void> {
    const started = await Promise.allSettled(Array.from({ length: this.opts.size }, () => this.spawn()))
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failed !== undefined) {
      await this.close()
      throw failed.reason
    }
  }

  private spawn (): Promise<void> {
    const worker = new Worker(new URL('./worker-entry.mjs', import.meta.url), {
      workerData: { models: this.opts.models, ctx: this.opts.ctx } satisfies WorkerInit
    })
    const slot: Slot = { worker, busy: null, ready: false, gone: false, tensors: 0 }
    this.slots.push(slot)
    return new Promise((resolve, reject) => {
      worker.on('message', (msg: WorkerStatus | TextReply) => {
        if ('ready' in msg) {
          if (!msg.ready) {
            reject(new Error(msg.error))
            void worker.terminate()
            return
          }
          slot.ready = true
          slot.tensors = msg.tensors
          // an idle worker does not keep the process alive (one is held only while it runs a job)
          worker.unref()
          this.backend = msg.backend
          resolve()
          this.pump()
          return
        }
        slot.tensors = msg.tensors
        const job = slot.busy
        slot.busy = null
        worker.unref()
        if (job !== null && job.msg.id === msg.id) {
          if ('outputs' in msg) job.resolve(msg.outputs)
          else job.reject(new Error(msg.error))
        }
        this.pump()
      })
      // an 'error' event is followed by 'exit'; listening keeps it from being thrown in this thread
      let cause: Error | null = null
      worker.on('error', (err) => { cause = err })
      worker.on('exit', (code) => {
        if (!slot.ready) reject(cause ?? new Error(`a text worker exited (code ${code}) while loading the models`))
        this.gone(slot, cause ?? new Error(`text worker exited with code ${code}`))
      })
    })
  }

  /** Fails the dead worker's job, and only it, then starts a replacement. */
  private gone (slot: Slot, err: Error): void {
    if (slot.gone) return
    slot.gone = true
    const i = this.slots.indexOf(slot)
    if (i >= 0) this.slots.splice(i, 1)
    if (slot.busy !== null) {
      slot.busy.reject(new Error(`the text worker running this job stopped: ${err.message}`))
      slot.busy = null
    }
    if (this.closed || !slot.ready) return
    this.opts.log?.(`text worker stopped (${err.message}); starting a replacement`)
    this.replace()
  }

  private replace (): void {
    this.spawn().then(() => {
      this.replaced++
      this.retryMs = 1000
    }, (err: Error) => {
      if (this.closed) return
      this.opts.log?.(`replacement text worker failed to start: ${err.message}; retrying in ${this.retryMs} ms`)
      // with no worker left nothing would ever answer the waiting calls: refuse them now
      if (!this.slots.some((s) => s.ready)) this.drain(() => withHeaders(new Errors.Overloaded(), { 'retry-after': 1 }))
      setTimeout(() => { if (!this.closed) this.replace() }, this.retryMs).unref()
      this.retryMs = Math.min(30_000, this.retryMs * 2)
    })
  }

  /** One result per input, as the model's own predict would answer. */
  run (model: string, inputs: unknown[]): Promise<unknown[]> {
    const n = inputs.length
    if (n === 0) return Promise.resolve([])
    if (this.closed || (this.queued > 0 && this.queued + n > this.opts.maxQueue)) {
      return Promise.reject(withHeaders(new Errors.Overloaded(), { 'retry-after': 1 }))
    }
    const size = Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, Math.ceil(n / Math.max(1, this.opts.size))))
    if (n <= size) return this.enqueue(model, inputs)
    const parts: Array<Promise<unknown[]>> = []
    for (let at = 0; at < n; at += size) parts.push(this.enqueue(model, inputs.slice(at, at + size)))
    return Promise.all(parts).then((rows) => rows.flat(1))
  }

  private enqueue (model: string, inputs: unknown[]): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ msg: { id: this.nextId++, model, inputs }, resolve, reject })
      this.queued += inputs.length
      this.pump()
    })
  }

  private pump (): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.busy !== null || slot.gone) continue
      const job = this.queue.shift()
      if (job === undefined) return
      this.queued -= job.msg.inputs.length
      try {
        slot.worker.postMessage(job.msg)
        slot.busy = job
        slot.worker.ref()
        this.jobs++
      } catch (err) {
        job.reject(err as Error)
      }
    }
  }

  private drain (error: () => Error): void {
    for (const job of this.queue.splice(0)) job.reject(error())
    this.queued = 0
  }

  /** workers running, busy, and texts waiting; live tensors per worker as of its last reply */
  stats (): { workers: number, busy: number, queued: number, tensors: number[] } {
    const live = this.slots.filter((s) => s.ready)
    return { workers: live.length, busy: live.filter((s) => s.busy !== null).length, queued: this.queued, tensors: live.map((s) => s.tensors) }
  }

  /** The worker threads, so tests can stop one. */
  threads (): Worker[] {
    return this.slots.filter((s) => s.ready).map((s) => s.worker)
  }

  async close (): Promise<void> {
    this.closed = true
    this.drain(() => withHeaders(new Errors.Overloaded(), { 'retry-after': 1 }))
    await Promise.all(this.slots.map((s) => s.worker.terminate()))
    this.slots.length = 0
  }
}
