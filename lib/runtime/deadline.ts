// A request's deadline (REQUEST_TIMEOUT_MS from its arrival): the work of a request runs in its
// scope, so the pools that would start more of it for a request already answered can see that it
// is no longer wanted (currentDeadline) and drop it; the request itself is answered 503 at the
// deadline, whatever the work is doing. A plain object with its own listeners, not an
// AbortController: it is made for every request, and EventTarget listeners cost several
// microseconds each.
import { AsyncLocalStorage } from 'node:async_hooks'
import { Errors, withHeaders } from '../errors.js'

const scope = new AsyncLocalStorage<Deadline>()

/** The deadline of the request whose work is running, if any. */
export function currentDeadline (): Deadline | undefined {
  return scope.getStore()
}

/**
 * `fn` of each item, on the event loop: after every `budget` of work (each item's `cost`) the loop is
 * handed back, so that other requests go on, and a request past its deadline stops there (throws).
 */
export async function mapInTurns<T, R> (
  items: readonly T[],
  cost: (x: T) => number,
  budget: number,
  fn: (x: T) => R
): Promise<R[]> {
  const out: R[] = []
  let spent = 0
  for (const x of items) {
    out.push(fn(x))
    spent += cost(x)
    if (spent < budget) continue
    spent = 0
    await new Promise(resolve => setImmediate(resolve))
    const ended = currentDeadline()?.ended
    if (ended != null) throw ended
  }
  return out
}

export class Deadline {
  private why: Error | null = null
  private readonly waiting = new Set<(why: Error) => void>()
  private readonly timer: NodeJS.Timeout

  constructor (ms: number) {
    const retry = Math.max(1, Math.ceil(ms / 1000))
    this.timer = setTimeout(() => {
      this.end(withHeaders(new Errors.DeadlinePassed(ms / 1000), { 'retry-after': retry }))
    }, ms)
    this.timer.unref()
  }

  /** Why the work is no longer wanted (the deadline passed, the client left), or null while it is. */
  get ended (): Error | null {
    return this.why
  }

  /** Calls fn once the work is no longer wanted; the function returned stops that. */
  onEnd (fn: (why: Error) => void): () => void {
    this.waiting.add(fn)
    return () => {
      this.waiting.delete(fn)
    }
  }

  /** The request was answered: the deadline no longer matters. */
  clear (): void {
    clearTimeout(this.timer)
    this.waiting.clear()
  }

  /** The client went away before its answer: the work for it is dropped as at the deadline. */
  abandon (): void {
    this.end(new Error('the client closed the connection before the answer'))
  }

  private end (why: Error): void {
    if (this.why !== null) return
    clearTimeout(this.timer)
    this.why = why
    const waiting = [...this.waiting]
    this.waiting.clear()
    for (const fn of waiting) fn(why)
  }

  /** fn's answer, run in this deadline's scope; a 503 (DeadlinePassed) once the deadline passes first. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.why !== null) return Promise.reject(this.why)
    return new Promise<T>((resolve, reject) => {
      const off = this.onEnd(reject)
      scope.run(this, fn).then(
        v => {
          off()
          resolve(v)
        },
        (err: unknown) => {
          off()
          reject(err)
        }
      )
    })
  }
}

/** A pool's waiting job: `drop` runs if the deadline ends before the job settles. */
export function dropOnEnd<T> (
  job: { resolve: (v: T) => void; reject: (e: Error) => void },
  deadline: Deadline,
  drop: (why: Error) => void
): void {
  const off = deadline.onEnd(drop)
  const { resolve, reject } = job
  job.resolve = v => {
    off()
    resolve(v)
  }
  job.reject = e => {
    off()
    reject(e)
  }
}
