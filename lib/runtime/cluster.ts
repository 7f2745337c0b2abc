// Every core: WEB_CONCURRENCY HTTP processes (node:cluster) sharing the listening port, each with
// its own text workers, all on the one store (SQLite on one machine, or Redis). The primary only
// supervises: it forks the processes, replaces one that dies, and on SIGTERM/SIGINT passes the
// signal on and exits once they have closed.
import cluster, { type Worker } from 'node:cluster'
import { cpuBudget } from '../config.js'

export interface Concurrency {
  processes: number
  textWorkers: number
}

/**
 * How many HTTP processes and how many text workers in each. WEB_CONCURRENCY defaults to half the
 * cores this container may use (each process wants a core for its event loop and one for a text
 * worker; on 2 cores that is one process, as before); text workers default to the cores left per
 * process after its event loop, at least 1 and at most 4.
 */
export function concurrency (env: NodeJS.ProcessEnv, cores = cpuBudget()): Concurrency {
  const raw = env.WEB_CONCURRENCY
  let processes = Math.max(1, Math.floor(cores / 2))
  if (raw !== undefined && raw !== '') {
    if (!/^\d+$/.test(raw.trim()) || Number(raw) < 1 || Number(raw) > 256) {
      throw new Error(
        `Invalid configuration at /webConcurrency: WEB_CONCURRENCY must be an integer from 1 to 256, got "${raw}"`
      )
    }
    processes = Number(raw)
  }
  const textWorkers = Math.max(1, Math.min(4, Math.floor(cores / processes) - 1))
  return { processes, textWorkers }
}

export interface SuperviseOptions {
  processes: number
  /** environment added to each process's */
  env: Record<string, string>
  log: (msg: string) => void
}

/**
 * In the primary: forks the processes, each once the one before listens, and supervises them. Resolves when every
 * process has exited after a signal. A process that dies otherwise is replaced, after a second if it had run for less
 * than ten (a crash at start-up is not retried in a tight loop).
 */
export async function supervise (opts: SuperviseOptions): Promise<void> {
  let stopping = false
  const started = new Map<Worker, number>()
  const fork = () => {
    started.set(cluster.fork(opts.env), Date.now())
  }
  return new Promise<void>(resolve => {
    cluster.on('exit', (worker, code, signal) => {
      const since = started.get(worker) ?? 0
      started.delete(worker)
      if (stopping) {
        if (started.size === 0) resolve()
        return
      }
      opts.log(`HTTP process ${worker.process.pid ?? '?'} exited (${signal ?? code}); starting another`)
      setTimeout(fork, Date.now() - since < 10_000 ? 1000 : 0)
    })
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        stopping = true
        if (started.size === 0) resolve()
        for (const w of started.keys()) w.process.kill(signal)
      })
    }
    // one after the other: each loads its models with the machine to itself (started together on a
    // busy 2-core host, two processes overran the 10 s plugin time-out loading theirs)
    let left = opts.processes
    const next = () => {
      if (left-- > 0 && !stopping) fork()
    }
    cluster.on('listening', next)
    next()
  })
}

export const isPrimary = () => cluster.isPrimary
