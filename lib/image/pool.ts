// A small pool of image workers shared by the two image models. Jobs go to an idle worker or wait
// in a bounded queue; a full queue answers 503 (load shedding) rather than piling up memory. A worker
// that stops (an error, running out of its heap, or any exit) fails only the job it was running and
// is replaced (lib/runtime/worker-pool.ts); a replacement that fails to start is retried with backoff, and
// while no worker is left the waiting jobs are answered 503 rather than left hanging. A job whose
// request passed its deadline or lost its client (lib/runtime/deadline.ts) leaves the queue unrun.
import type { Worker, WorkerOptions } from 'node:worker_threads'
import { Errors } from '../errors.js'
import { currentDeadline, dropOnEnd } from '../runtime/deadline.js'
import { WorkerPool, overloaded, type WorkerSlot } from '../runtime/worker-pool.js'
import type { ImageJob, ImageReply, ImageResult, Op } from './types.js'
import type { FaceCrop } from './expression.js'

/** faceCrop: the crop face-api's expression net is given (lib/image/expression.ts; 'box' when unset) */
export interface PoolOptions {
  size: number
  maxPixels: number
  maxSide: number
  objectTop: number
  maxQueue: number
  faceCrop?: FaceCrop
}

// A worker's JS heap holds about 70 MB live, but each image leaves some 80 KB of garbage in the
// old generation, and V8 let it grow to about 245 MB per worker before collecting it (a soak run:
// +290 MB of service RSS with two workers, then a sudden drop). A smaller old generation makes V8
// collect sooner; a worker that did outgrow it would fail its job and be replaced, like any crash.
// (The limit covers the JS heap only, not wasm tensor memory or sharp's buffers; a
// NODE_OPTIONS=--max-old-space-size would override it.)
const HEAP_MB = 160

interface Pending {
  job: ImageJob
  resolve: (r: ImageResult) => void
  reject: (e: Error) => void
}
interface Slot extends WorkerSlot {
  busy: Pending | null
}

export class ImagePool extends WorkerPool<Slot, ImageReply> {
  private readonly queue: Pending[] = []
  private nextId = 1
  /** live tensors reported by the last worker reply */
  tensors = 0

  constructor (private readonly opts: PoolOptions) {
    super('image', new URL('./worker-entry.mjs', import.meta.url))
  }

  async start (): Promise<void> {
    await Promise.all(Array.from({ length: this.opts.size }, () => this.spawn()))
  }

  protected options (): WorkerOptions {
    return {
      workerData: {
        maxPixels: this.opts.maxPixels,
        maxSide: this.opts.maxSide,
        objectTop: this.opts.objectTop,
        faceCrop: this.opts.faceCrop
      },
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB }
    }
  }

  protected slot (worker: Worker): Slot {
    return { worker, busy: null, ready: false, gone: false }
  }

  protected received (slot: Slot, msg: ImageReply): void {
    this.tensors = msg.tensors
    const p = slot.busy
    slot.busy = null
    if (p === null) return
    if ('result' in msg) p.resolve(msg.result)
    else if (msg.error.kind === 'too-large') {
      p.reject(new Errors.ImageTooLarge(msg.error.message.replace(/^.*the limit is /, '') + ' pixels'))
    } else if (msg.error.kind === 'unsupported') p.reject(new Errors.UnsupportedImage(` (${msg.error.message})`))
    else p.reject(new Error(msg.error.message))
  }

  /** A worker that dies fails its job (500, refunded). */
  protected release (slot: Slot, err: Error): void {
    slot.busy?.reject(err)
    slot.busy = null
  }

  protected refuse (error: () => Error): void {
    for (const p of this.queue.splice(0)) p.reject(error())
  }

  run (op: Op, bytes: Buffer): Promise<ImageResult> {
    if (this.queue.length >= this.opts.maxQueue) return Promise.reject(overloaded())
    const deadline = currentDeadline()
    if (deadline?.ended != null) return Promise.reject(deadline.ended)
    return new Promise((resolve, reject) => {
      const pending: Pending = { job: { id: this.nextId++, op, bytes: new Uint8Array(bytes) }, resolve, reject }
      if (deadline !== undefined) {
        dropOnEnd(pending, deadline, why => {
          const at = this.queue.indexOf(pending)
          if (at < 0) return
          this.queue.splice(at, 1)
          pending.reject(why)
        })
      }
      this.queue.push(pending)
      this.pump()
    })
  }

  protected pump (): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.busy !== null) continue
      const next = this.queue.shift()
      if (next === undefined) return
      slot.busy = next
      slot.worker.postMessage(next.job)
    }
  }

  /** workers running, busy, and images waiting */
  stats (): { workers: number; busy: number; queued: number } {
    const live = this.slots.filter(s => s.ready)
    return { workers: live.length, busy: live.filter(s => s.busy !== null).length, queued: this.queue.length }
  }

  close (): Promise<void> {
    return this.shutDown(() => new Errors.Overloaded())
  }
}
