// A small pool of image workers shared by the two image models. Jobs go to an idle worker or wait
// in a bounded queue; a full queue answers 503 (load shedding) rather than piling up memory. A worker
// that stops (an error, running out of its heap, or any exit) fails only the job it was running and
// is replaced; a replacement that fails to start is retried with backoff, and while no worker is
// left the waiting jobs are answered 503 rather than left hanging.
import { Worker } from 'node:worker_threads'
import { Errors, withHeaders } from '../errors.js'
import { Respawner } from '../respawn.js'
import type { ImageJob, ImageReply, ImageResult, Op } from './types.js'

export interface PoolOptions { size: number, maxPixels: number, maxSide: number, objectTop: number, maxQueue: number }

// A worker's JS heap holds about 70 MB live, but each image leaves some 80 KB of garbage in the
// old generation, and V8 let it grow to about 245 MB per worker before collecting it (a soak run:
// +290 MB of service RSS with two workers, then a sudden drop). A smaller old generation makes V8
// collect sooner; a worker that did outgrow it would fail its job and be replaced, like any crash.
// (The limit covers the JS heap only, not wasm tensor memory or sharp's buffers; a
// NODE_OPTIONS=--max-old-space-size would override it.)
const HEAP_MB = 160

interface Pending { job: ImageJob, resolve: (r: ImageResult) => void, reject: (e: Error) => void }
interface Slot { worker: Worker, busy: Pending | null, gone: boolean }

export class ImagePool {
  private readonly workers: Slot[] = []
  private readonly queue: Pending[] = []
  private nextId = 1
  backend = 'unknown'
  /** live tensors reported by the last worker reply */
  tensors = 0
  private closed = false
  private readonly respawner = new Respawner(() => this.spawn(), () => this.closed, () => {
    // with no worker left nothing would ever answer the waiting jobs: refuse them now
    if (this.workers.length === 0) for (const p of this.queue.splice(0)) p.reject(withHeaders(new Errors.Overloaded(), { 'retry-after': 1 }))
  })

  constructor (private readonly opts: PoolOptions) {}

  /** workers replaced after stopping (for tests and diagnostics) */
  get replaced (): number { return this.respawner.replaced }

  async start (): Promise<void> {
    await Promise.all(Array.from({ length: this.opts.size }, () => this.spawn()))
  }

  private spawn (): Promise<void> {
    const worker = new Worker(new URL('./worker-entry.mjs', import.meta.url), {
      workerData: { maxPixels: this.opts.maxPixels, maxSide: this.opts.maxSide, objectTop: this.opts.objectTop },
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB }
    })
    const slot: Slot = { worker, busy: null, gone: false }
    return new Promise((resolve, reject) => {
      let ready = false
      let cause: Error | null = null
      // an 'error' event is followed by 'exit'; a worker may also exit without one
      worker.on('error', (err) => { cause = err })
      worker.on('exit', (code) => {
        const err = cause ?? new Error(`image worker exited with code ${code}`)
        if (!ready) reject(err)
        else this.crashed(slot, err)
      })
      worker.on('message', (msg: ImageReply | { ready: true, backend: string }) => {
        if ('ready' in msg) {
          ready = true
          this.backend = msg.backend
          this.workers.push(slot)
          resolve()
          this.pump()
          return
        }
        this.tensors = msg.tensors
        const p = slot.busy
        slot.busy = null
        if (p !== null) {
          if ('result' in msg) p.resolve(msg.result)
          else if (msg.error.kind === 'too-large') p.reject(new Errors.ImageTooLarge(msg.error.message.replace(/^.*the limit is /, '') + ' pixels'))
          else if (msg.error.kind === 'unsupported') p.reject(new Errors.UnsupportedImage(` (${msg.error.message})`))
          else p.reject(new Error(msg.error.message))
        }
        this.pump()
      })
    })
  }

  /** A worker that dies fails its job (500, refunded) and is replaced. */
  private crashed (slot: Slot, err: Error): void {
    if (slot.gone) return
    slot.gone = true
    slot.busy?.reject(err)
    slot.busy = null
    const i = this.workers.indexOf(slot)
    if (i >= 0) this.workers.splice(i, 1)
    if (!this.closed) this.respawner.replace()
  }

  run (op: Op, bytes: Buffer): Promise<ImageResult> {
    if (this.queue.length >= this.opts.maxQueue) return Promise.reject(withHeaders(new Errors.Overloaded(), { 'retry-after': 1 }))
    return new Promise((resolve, reject) => {
      this.queue.push({ job: { id: this.nextId++, op, bytes: new Uint8Array(bytes) }, resolve, reject })
      this.pump()
    })
  }

  private pump (): void {
    for (const slot of this.workers) {
      if (slot.busy !== null) continue
      const next = this.queue.shift()
      if (next === undefined) return
      slot.busy = next
      slot.worker.postMessage(next.job)
    }
  }

  /** workers running, busy, and images waiting */
  stats (): { workers: number, busy: number, queued: number } {
    return { workers: this.workers.length, busy: this.workers.filter((s) => s.busy !== null).length, queued: this.queue.length }
  }

  /** The worker threads, so tests can stop one. */
  threads (): Worker[] {
    return this.workers.map((s) => s.worker)
  }

  async close (): Promise<void> {
    this.closed = true
    for (const p of this.queue.splice(0)) p.reject(new Errors.Overloaded())
    await Promise.all(this.workers.map((w) => w.worker.terminate()))
    this.workers.length = 0
  }
}
