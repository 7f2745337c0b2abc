// The jobs waiting for a text worker (lib/text/pool/pool.ts): two lines that take turns, single texts
// and the first chunk of each call in one, the other chunks of large calls in the other, counted in
// texts; and the job a worker takes next, with the jobs of its model in the same line that fit beside it
// (micro-batching).
import type { TextJob } from './protocol.js'
import type { RouteAsk } from '../routing.js'

export interface Job {
  msg: TextJob
  resolve: (rows: unknown[]) => void
  reject: (e: Error) => void
  /** sent alone: it was in a batch whose worker stopped */
  solo?: boolean
  /** a chunk after the first of its call: it waits in `later` */
  later?: boolean
  /** its request no longer wants it (lib/runtime/deadline.ts) */
  dropped?: boolean
}

// Chunks small enough to share a batch between workers, big enough that a message round trip
// (well under a millisecond) stays small beside the inference it carries.
export const MIN_CHUNK = 32
export const MAX_CHUNK = 256

export class WaitingJobs {
  /** single texts and the first chunk of each call, oldest first */
  private readonly queue: Job[] = []
  /** the other chunks of large calls, oldest first; they and `queue` take turns */
  private readonly later: Job[] = []
  private lastFromQueue = false
  /** texts waiting, in both lines */
  texts = 0

  /** whether no job waits */
  get empty (): boolean {
    return this.queue.length === 0 && this.later.length === 0
  }

  /** A job at the back of its line (`later` for a chunk after the first of its call). */
  add (job: Job): void {
    ;(job.later === true ? this.later : this.queue).push(job)
    this.texts += job.msg.inputs.length
  }

  /** Takes a job out of its line; false when it no longer waits there. */
  remove (job: Job): boolean {
    const queue = job.later === true ? this.later : this.queue
    const at = queue.indexOf(job)
    if (at < 0) return false
    queue.splice(at, 1)
    this.texts -= job.msg.inputs.length
    return true
  }

  /** Jobs back at the front of the line each came from (their worker stopped), in this order. */
  putBack (again: Job[]): void {
    this.queue.unshift(...again.filter(j => j.later !== true))
    this.later.unshift(...again.filter(j => j.later === true))
    for (const job of again) this.texts += job.msg.inputs.length
  }

  /**
   * The oldest job of `queue` or of `later` (in turns when both wait), with the jobs of its model in the
   * same queue that fit beside it, up to MAX_CHUNK texts; undefined when none waits.
   */
  take (): Job[] | undefined {
    const queue = this.later.length > 0 && (this.queue.length === 0 || this.lastFromQueue) ? this.later : this.queue
    this.lastFromQueue = queue === this.queue
    const first = queue.shift()
    if (first === undefined) return undefined
    const jobs = [first]
    let n = first.msg.inputs.length
    for (let i = 0; first.solo !== true && i < queue.length && n < MAX_CHUNK;) {
      const next = queue[i] as Job
      if (
        joinable(next.msg, first.msg) &&
        next.solo !== true &&
        n + next.msg.inputs.length <= MAX_CHUNK
      ) {
        jobs.push(next)
        n += next.msg.inputs.length
        queue.splice(i, 1)
      } else i++
    }
    this.texts -= n
    return jobs
  }

  /** Every waiting job, taken out of both lines (those of `queue` first). */
  clear (): Job[] {
    const all = [...this.queue.splice(0), ...this.later.splice(0)]
    this.texts = 0
    return all
  }
}

/** Whether two jobs can go in one message: the same model, routed alike. */
export function joinable (a: TextJob, b: TextJob): boolean {
  if (a.model !== b.model) return false
  if (a.route === undefined || b.route === undefined) return a.route === b.route
  const { langs: la, ...ra } = a.route
  const { langs: lb, ...rb } = b.route
  return (la === undefined) === (lb === undefined) && JSON.stringify(ra) === JSON.stringify(rb)
}
/** joinable jobs as one message (the first one's id), their inputs (and given languages) in order */
export function joined (jobs: TextJob[]): TextJob {
  const first = jobs[0] as TextJob
  if (jobs.length === 1) return first
  const inputs = jobs.flatMap(j => j.inputs)
  if (first.route?.langs === undefined) return { ...first, inputs }
  return { ...first, inputs, route: { ...first.route, langs: jobs.flatMap(j => j.route?.langs ?? []) } }
}
/** The part of a job's route for its inputs from `at` to `end` (the given languages sliced alike). */
export function sliceRoute (route: RouteAsk | undefined, at: number, end: number): RouteAsk | undefined {
  if (route?.langs === undefined) return route
  return { ...route, langs: route.langs.slice(at, end) }
}
