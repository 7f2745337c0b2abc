// A request's deadline (REQUEST_TIMEOUT_MS from its arrival): the work of a request runs in its
// scope, so the pools that would start more of it for a request already answered can see that it
// is no longer wanted (currentSignal) and drop it; the request itself is answered 503 at the
// deadline, whatever the work is doing.
import { AsyncLocalStorage } from 'node:async_hooks'
import { Errors, withHeaders } from './errors.js'

const scope = new AsyncLocalStorage<AbortSignal>()

/** The signal of the request whose work is running, if any: aborted once its deadline passed. */
export function currentSignal (): AbortSignal | undefined {
  return scope.getStore()
}

export class Deadline {
  private readonly controller = new AbortController()
  private readonly timer: NodeJS.Timeout

  constructor (ms: number) {
    const retry = Math.max(1, Math.ceil(ms / 1000))
    this.timer = setTimeout(() => {
      this.controller.abort(withHeaders(new Errors.DeadlinePassed(ms / 1000), { 'retry-after': retry }))
    }, ms)
    this.timer.unref()
  }

  get signal (): AbortSignal { return this.controller.signal }

  /** The request was answered: the deadline no longer matters. */
  clear (): void {
    clearTimeout(this.timer)
  }

  /** The client went away before its answer: the work for it is dropped as at the deadline. */
  abandon (): void {
    clearTimeout(this.timer)
    this.controller.abort(new Error('the client closed the connection before the answer'))
  }

  /** fn's answer, run in this deadline's scope; a 503 (DeadlinePassed) once the deadline passes first. */
  run<T> (fn: () => Promise<T>): Promise<T> {
    const { signal } = this
    if (signal.aborted) return Promise.reject(abortReason(signal))
    return new Promise<T>((resolve, reject) => {
      const passed = () => reject(abortReason(signal))
      signal.addEventListener('abort', passed, { once: true })
      const done = () => signal.removeEventListener('abort', passed)
      scope.run(signal, fn).then((v) => { done(); resolve(v) }, (err: unknown) => { done(); reject(err) })
    })
  }
}

/** Why `signal` aborted, as an Error. */
export function abortReason (signal: AbortSignal): Error {
  const r: unknown = signal.reason
  return r instanceof Error ? r : new Error(String(r))
}

/** A pool's waiting job: `drop` runs if `signal` aborts before the job settles. */
export function dropOnAbort<T> (
  job: { resolve: (v: T) => void, reject: (e: Error) => void },
  signal: AbortSignal,
  drop: () => void
): void {
  signal.addEventListener('abort', drop, { once: true })
  const { resolve, reject } = job
  job.resolve = (v) => { signal.removeEventListener('abort', drop); resolve(v) }
  job.reject = (e) => { signal.removeEventListener('abort', drop); reject(e) }
}
