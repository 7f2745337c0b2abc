// The worker-thread life cycle the text and image pools share. A worker counts once its first
// message says it is ready; one that stops (an error, running out of its heap, any exit) leaves
// the pool, which fails or re-queues the jobs it held and starts a replacement (Respawner: backoff
// while a replacement fails to start, and the waiting calls refused while no worker is left);
// close terminates every worker, ready or loading. Each pool keeps its own queue and its own rule
// for which worker runs what (pump).
import { Worker, type WorkerOptions } from 'node:worker_threads'
import { Errors, withHeaders } from '../errors.js'
import { Respawner } from './respawn.js'

/** A worker's first message: ready (with the backend it runs on), or why it could not load. */
export type WorkerReady = { ready: true; backend: string }
export type WorkerFailed = { ready: false; error: string }

export interface WorkerSlot {
  worker: Worker
  ready: boolean
  gone: boolean
}

/** The 503 a call gets when no worker can take it. */
export const overloaded = (): Error => withHeaders(new Errors.Overloaded(), { 'retry-after': 1 })

export abstract class WorkerPool<
  Slot extends WorkerSlot,
  Reply extends object,
  Ready extends WorkerReady = WorkerReady
> {
  /** every worker started and not stopped, ready or still loading */
  protected readonly slots: Slot[] = []
  protected closed = false
  backend = 'unknown'
  private readonly respawner = new Respawner(
    () => this.spawn(),
    () => this.closed,
    (err, retryMs) => {
      this.log?.(`replacement ${this.kind} worker failed to start: ${err.message}; retrying in ${retryMs} ms`)
      // with no worker left nothing would ever answer the waiting calls: refuse them now
      if (!this.slots.some(s => s.ready)) this.refuse(overloaded)
    }
  )

  /** `entry`: the worker's module; `kind` names it in errors and the log. */
  constructor (
    private readonly kind: string,
    protected entry: URL,
    protected readonly log?: (msg: string) => void
  ) {}

  /** the worker's options (its workerData, resource limits) */
  protected abstract options (): WorkerOptions
  /** a new worker's slot, not yet ready */
  protected abstract slot (worker: Worker): Slot
  /** a reply to a job the worker was given */
  protected abstract received (slot: Slot, reply: Reply): void
  /** the worker stopped: fail or re-queue the jobs it held (it is out of `slots` already) */
  protected abstract release (slot: Slot, err: Error): void
  /** fails every waiting call with error() */
  protected abstract refuse (error: () => Error): void
  /** hands waiting jobs to ready workers that can take them */
  protected abstract pump (): void
  /** the worker became ready (its slot says so already) */
  protected started (_slot: Slot, _status: Ready): void {}

  /** workers replaced after stopping (for tests and diagnostics) */
  get replaced (): number {
    return this.respawner.replaced
  }

  /** Starts one worker; resolves once it is ready, rejects if it cannot load. */
  protected spawn (): Promise<void> {
    const worker = new Worker(this.entry, this.options())
    const slot = this.slot(worker)
    this.slots.push(slot)
    return new Promise((resolve, reject) => {
      worker.on('message', (msg: Ready | WorkerFailed | Reply) => {
        if ('ready' in msg) {
          if (!msg.ready) {
            reject(new Error(msg.error))
            void worker.terminate()
            return
          }
          slot.ready = true
          this.backend = msg.backend
          this.started(slot, msg as Ready)
          resolve()
        } else {
          this.received(slot, msg)
        }
        this.pump()
      })
      // an 'error' event is followed by 'exit' (listening keeps it from being thrown in this
      // thread); a worker may also exit without one
      let cause: Error | null = null
      worker.on('error', err => {
        cause = err
      })
      worker.on('exit', code => {
        if (!slot.ready) reject(cause ?? new Error(`${this.kind} worker exited (code ${code}) while loading`))
        this.stopped(slot, cause ?? new Error(`${this.kind} worker exited with code ${code}`))
      })
    })
  }

  /** A stopped worker leaves the pool; its jobs are released, and a worker that was ready is replaced. */
  private stopped (slot: Slot, err: Error): void {
    if (slot.gone) return
    slot.gone = true
    const i = this.slots.indexOf(slot)
    if (i >= 0) this.slots.splice(i, 1)
    this.release(slot, err)
    if (this.closed) return
    this.pump()
    if (!slot.ready) return
    this.log?.(`${this.kind} worker stopped (${err.message}); starting a replacement`)
    this.respawner.replace()
  }

  /** The ready worker threads, so tests can stop one. */
  threads (): Worker[] {
    return this.slots.filter(s => s.ready).map(s => s.worker)
  }

  /** Stops taking calls, fails the waiting ones with error(), and terminates every worker. */
  protected async shutDown (error: () => Error): Promise<void> {
    this.closed = true
    this.refuse(error)
    await Promise.all(this.slots.map(s => s.worker.terminate()))
    this.slots.length = 0
  }
}
