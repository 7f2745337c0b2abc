// The text worker pool: every worker thread loads every text model, so any worker can take any
// job. A predict call becomes one or more jobs (a large batch is cut into chunks so that it spreads
// over the workers); jobs go to an idle worker or wait in a queue bounded in texts, and a call that
// would overflow it is refused with a 503 and Retry-After (load shedding), as the image pool does.
// Jobs of one model that wait together (concurrent single texts, mostly) travel as one message
// and one tensor batch: micro-batching that adds no wait to an idle pool. A worker holds up to
// DEPTH messages so that it never idles during a round trip. A call's first chunk (a single text
// is one) does not wait behind the other chunks of earlier large calls: the two kinds take turns,
// so a single text waits for what its worker already holds and then at most one more chunk of a
// 1000-text batch (not the whole batch), and the batch still moves on under a steady stream of
// single texts.
// A worker that dies fails only the job it was running (the others of its batch run again, each
// alone), and is replaced (lib/runtime/worker-pool.ts).
// A call made for a request whose deadline passed, or whose client left (lib/runtime/deadline.ts), is
// dropped: its chunks still waiting leave the queue, a message whose every job is dropped is
// skipped by its worker if not yet started, and a chunk already running ends as it would.
// The waiting jobs, their two lines and the batches taken from them: lib/text/pool/waiting.ts.
import type { Worker, WorkerOptions } from 'node:worker_threads'
import type { LoaderContext } from '../../serving/loaded-model.js'
import { WorkerPool, overloaded, type WorkerSlot } from '../../runtime/worker-pool.js'
import { CANCELLED } from './protocol.js'
import type { PoolModel, Ready, TextCancel, TextJob, TextReply, WorkerInit } from './protocol.js'
import type { RouteAsk, Routed } from '../routing.js'
import { bundledWorkers } from './bundle.js'
import { currentDeadline, dropOnEnd } from '../../runtime/deadline.js'
import { MAX_CHUNK, MIN_CHUNK, WaitingJobs, joined, sliceRoute, type Job } from './waiting.js'

export interface TextPoolOptions {
  size: number
  /** texts waiting for a worker; a call that would pass it is refused (one call is always let in) */
  maxQueue: number
  models: PoolModel[]
  /** the language identifier, loaded in each worker too, for routed jobs that detect (runRouted) */
  detector?: PoolModel
  ctx: LoaderContext
  log?: (msg: string) => void
}

/** What a worker is running: one message, which may carry several queued jobs of one model. */
interface Sent {
  id: number
  jobs: Job[]
}
interface Slot extends WorkerSlot {
  inflight: Sent[]
  tensors: number
}

// Messages a worker holds at once: while it runs one, the next is already waiting in its port, so
// it never sits idle during a message round trip. It runs them one at a time, in order.
const DEPTH = 2

export class TextPool extends WorkerPool<Slot, TextReply, Ready> {
  /** the jobs waiting for a worker */
  private readonly waiting = new WaitingJobs()
  private nextId = 1
  private pumpSoon = false
  /** jobs handed to workers so far */
  jobs = 0
  /** messages a worker skipped, their requests gone (lib/runtime/deadline.ts) */
  skipped = 0
  /** the models as the workers load them (their loaders bundled, when compile could) */
  private models: PoolModel[]
  /** the language identifier as the workers load it, if they do */
  private detector: PoolModel | undefined
  /** the workers' flags, when they run bundled code without the tsx loader */
  private execArgv: string[] | undefined

  /** whether the workers run the bundled plain-JS code (compile) rather than the TypeScript sources */
  get bundled (): boolean {
    return this.execArgv !== undefined
  }

  constructor (private readonly opts: TextPoolOptions) {
    super('text', new URL('./worker-entry.mjs', import.meta.url), opts.log)
    this.models = opts.models
    this.detector = opts.detector
  }

  /** whether the workers detect languages (a detector was given) */
  get detects (): boolean {
    return this.detector !== undefined
  }

  /** Starts every worker; resolves once each has loaded and warmed every model, else rejects. */
  async start (): Promise<void> {
    await this.compile()
    const started = await Promise.allSettled(Array.from({ length: this.opts.size }, () => this.spawn()))
    const failed = started.find((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failed !== undefined) {
      await this.close()
      throw failed.reason
    }
  }

  /**
   * Workers run the worker and its models' loaders bundled as plain JS (lib/runtime/worker-build.ts), not
   * through tsx, when every loader is a local module; otherwise, or if bundling fails, from the
   * TypeScript sources as before.
   */
  private async compile (): Promise<void> {
    const all = this.opts.detector === undefined ? this.opts.models : [...this.opts.models, this.opts.detector]
    try {
      const built = await bundledWorkers(all)
      if (built === undefined) return
      this.entry = built.entry
      this.models = this.opts.models.map(m => built.bundled(m))
      if (this.opts.detector !== undefined) this.detector = built.bundled(this.opts.detector)
      // no flags: not the tsx loader, and a worker refuses the process-wide ones (--expose-gc, ...)
      this.execArgv = []
    } catch (err) {
      this.log?.(`text workers run from the TypeScript sources: bundling them failed: ${(err as Error).message}`)
    }
  }

  protected options (): WorkerOptions {
    return {
      ...(this.execArgv === undefined ? {} : { execArgv: this.execArgv }),
      workerData: {
        models: this.models,
        ...(this.detector === undefined ? {} : { detector: this.detector }),
        ctx: this.opts.ctx
      } satisfies WorkerInit
    }
  }

  protected slot (worker: Worker): Slot {
    return { worker, inflight: [], ready: false, gone: false, tensors: 0 }
  }

  protected override started (slot: Slot, status: Ready): void {
    slot.tensors = status.tensors
    // an idle worker does not keep the process alive (one is held only while it runs a job)
    slot.worker.unref()
  }

  protected received (slot: Slot, msg: TextReply): void {
    slot.tensors = msg.tensors
    const at = slot.inflight.findIndex(s => s.id === msg.id)
    const sent = at < 0 ? null : (slot.inflight.splice(at, 1)[0] as Sent)
    if (slot.inflight.length === 0) slot.worker.unref()
    if (sent === null) return
    if ('error' in msg && msg.error === CANCELLED) this.skipped++
    if ('outputs' in msg) {
      let at = 0
      for (const job of sent.jobs) {
        job.resolve(msg.outputs.slice(at, at + job.msg.inputs.length))
        at += job.msg.inputs.length
      }
    } else {
      for (const job of sent.jobs) job.reject(new Error(msg.error))
    }
  }

  /**
   * Fails the dead worker's job, and only it. The message it was running may have carried several
   * jobs: those run again, each alone, so that only the one that stops a worker fails. The message
   * waiting behind it had not started: it goes back to the queue.
   */
  protected release (slot: Slot, err: Error): void {
    const [running, ...waiting] = slot.inflight.splice(0)
    const again: Job[] = []
    if (running !== undefined) {
      if (running.jobs.length === 1 || this.closed) {
        for (const job of running.jobs) {
          job.reject(new Error(`the text worker running this job stopped: ${err.message}`))
        }
      } else {
        for (const job of running.jobs) {
          job.solo = true
          again.push(job)
        }
      }
    }
    for (const sent of waiting) again.push(...sent.jobs)
    if (this.closed) {
      for (const job of again) job.reject(new Error(`the text worker running this job stopped: ${err.message}`))
      return
    }
    // back to the front of the line each came from
    this.waiting.putBack(again)
  }

  /** Routes texts by language through the models `ask` names (lib/text/routing.ts): one Routed per text. */
  runRouted (texts: string[], ask: RouteAsk): Promise<Routed[]> {
    return this.run(ask.models.join(','), texts, ask) as Promise<Routed[]>
  }

  /** One result per input, as the model's own predict would answer (with `route`, as runRouted). */
  run (model: string, inputs: unknown[], route?: RouteAsk): Promise<unknown[]> {
    const n = inputs.length
    if (n === 0) return Promise.resolve([])
    const queued = this.waiting.texts
    if (this.closed || (queued > 0 && queued + n > this.opts.maxQueue)) {
      return Promise.reject(overloaded())
    }
    const size = Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, Math.ceil(n / Math.max(1, this.opts.size))))
    if (n <= size) return this.enqueue({ id: 0, model, inputs, ...(route === undefined ? {} : { route }) }, false)
    const parts: Array<Promise<unknown[]>> = []
    for (let at = 0; at < n; at += size) {
      const part = sliceRoute(route, at, at + size)
      const msg = { id: 0, model, inputs: inputs.slice(at, at + size), ...(part === undefined ? {} : { route: part }) }
      parts.push(this.enqueue(msg, at > 0))
    }
    return Promise.all(parts).then(rows => rows.flat(1))
  }

  /** a job for `msg` (its id given here) at the back of its line: `later` for a chunk after the first of its call */
  private enqueue (msg: TextJob, later: boolean): Promise<unknown[]> {
    const deadline = currentDeadline()
    if (deadline?.ended != null) return Promise.reject(deadline.ended)
    return new Promise((resolve, reject) => {
      msg.id = this.nextId++
      const job: Job = { msg, resolve, reject, ...(later ? { later: true } : {}) }
      if (deadline !== undefined) dropOnEnd(job, deadline, why => this.drop(job, why))
      this.waiting.add(job)
      // requests read in this turn of the event loop are handed over together, after it
      if (!this.pumpSoon) {
        this.pumpSoon = true
        setImmediate(() => {
          this.pumpSoon = false
          this.pump()
        })
      }
    })
  }

  /** A job no longer wanted leaves its queue, or its worker skips its message if every job of it is dropped. */
  private drop (job: Job, why: Error): void {
    job.dropped = true
    if (this.waiting.remove(job)) {
      job.reject(why)
      return
    }
    for (const slot of this.slots) {
      const sent = slot.inflight.find(m => m.jobs.includes(job))
      if (sent?.jobs.every(j => j.dropped === true) !== true) continue
      slot.worker.postMessage({ cancel: sent.id } satisfies TextCancel)
    }
  }

  /**
   * Hands queued jobs to idle workers. Jobs of one model that queued while every worker was busy
   * (concurrent single-text requests, mostly) go together as one message and one tensor batch, up
   * to MAX_CHUNK texts: under load the batches grow by themselves, and an idle pool adds no wait.
   */
  protected pump (): void {
    // idle workers first, then a second message to each busy one
    for (let depth = 0; depth < DEPTH; depth++) {
      for (const slot of this.slots) {
        if (!slot.ready || slot.inflight.length !== depth || slot.gone) continue
        if (this.waiting.empty) return
        this.send(slot)
      }
    }
  }

  /**
   * Sends the oldest job of `queue` or of `later` (in turns when both wait), with the jobs of its
   * model in the same queue that fit beside it.
   */
  private send (slot: Slot): void {
    const jobs = this.waiting.take()
    if (jobs === undefined) return
    const msg = joined(jobs.map(j => j.msg))
    try {
      // a message behind another may be cancelled before its worker starts it
      slot.worker.postMessage(slot.inflight.length > 0 ? { ...msg, behind: true } : msg)
      slot.inflight.push({ id: msg.id, jobs })
      slot.worker.ref()
      this.jobs++
    } catch (err) {
      for (const job of jobs) job.reject(err as Error)
    }
  }

  protected refuse (error: () => Error): void {
    for (const job of this.waiting.clear()) job.reject(error())
  }

  /** workers running, busy, and texts waiting; live tensors per worker as of its last reply */
  stats (): { workers: number; busy: number; queued: number; tensors: number[] } {
    const live = this.slots.filter(s => s.ready)
    return {
      workers: live.length,
      busy: live.filter(s => s.inflight.length > 0).length,
      queued: this.waiting.texts,
      tensors: live.map(s => s.tensors)
    }
  }

  close (): Promise<void> {
    return this.shutDown(overloaded)
  }
}
