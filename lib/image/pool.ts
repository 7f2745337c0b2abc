// A small pool of image workers shared by the two image models. Jobs go to an idle worker or wait
// in a bounded queue; a full queue answers 503 (load shedding) rather than piling up memory.
import { Worker } from 'node:worker_threads'
import { Errors, withHeaders } from '../errors.js'
import type { FaceResult, ImageJob, ImageReply, ObjectResult, Op } from './types.js'

export interface PoolOptions { size: number, maxPixels: number, maxSide: number, objectTop: number, maxQueue: number }

// A worker's JS heap holds about 70 MB live, but each image leaves some 80 KB of garbage in the
// old generation, and V8 let it grow to about 245 MB per worker before collecting it (a soak run:
// +290 MB of service RSS with two workers, then a sudden drop). A smaller old generation makes V8
// collect sooner; a worker that did outgrow it would fail its job and be replaced, like any crash.
const HEAP_MB = 160

interface Pending { job: ImageJob, resolve: (r: FaceResult | ObjectResult) => void, reject: (e: Error) => void }

export class ImagePool {
  private readonly workers: Array<{ worker: Worker, busy: Pending | null }> = []
  private readonly queue: Pending[] = []
  private nextId = 1
  backend = 'unknown'
  /** live tensors reported by the last worker reply */
  tensors = 0
  private closed = false

  constructor (private readonly opts: PoolOptions) {}

  async start (): Promise<void> {
    await Promise.all(Array.from({ length: this.opts.size }, () => this.spawn()))
  }

  private spawn (): Promise<void> {
    const worker = new Worker(new URL('./worker-entry.mjs', import.meta.url), {
      workerData: { maxPixels: this.opts.maxPixels, maxSide: this.opts.maxSide, objectTop: this.opts.objectTop },
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB }
    })
    const slot: { worker: Worker, busy: Pending | null } = { worker, busy: null }
    return new Promise((resolve, reject) => {
      worker.once('error', reject)
      worker.on('message', (msg: ImageReply | { ready: true, backend: string }) => {
        if ('ready' in msg) {
          this.backend = msg.backend
          worker.off('error', reject)
          worker.on('error', (err) => this.crashed(slot, err))
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
  private crashed (slot: { worker: Worker, busy: Pending | null }, err: Error): void {
    slot.busy?.reject(err)
    slot.busy = null
    const i = this.workers.indexOf(slot)
    if (i >= 0) this.workers.splice(i, 1)
    if (!this.closed) this.spawn().catch(() => {})
  }

  run (op: Op, bytes: Buffer): Promise<FaceResult | ObjectResult> {
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

  async close (): Promise<void> {
    this.closed = true
    for (const p of this.queue.splice(0)) p.reject(new Errors.Overloaded())
    await Promise.all(this.workers.map((w) => w.worker.terminate()))
    this.workers.length = 0
  }
}
