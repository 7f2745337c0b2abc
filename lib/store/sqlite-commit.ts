// The SQLite store's group commit (sqlite.ts): the writes asked for in one turn of the event loop and the
// gatherTurns turns after it run one after another in one transaction, and each promise settles once that
// transaction has committed. While another process holds the write lock the group is tried again on later
// turns, the writes asked for in between joining it, for up to busyMs; then its calls fail.
import type { Group } from './sqlite-group.js'

interface Job {
  run: (g: Group) => unknown
  resolve: (v: unknown) => void
  reject: (e: unknown) => void
}

export class GroupCommit {
  private pending: Job[] = []
  /** when the pending group first found the write lock taken (0: it has not) */
  private busySince = 0
  private tries = 0

  /** groupTx runs a group's jobs in one IMMEDIATE transaction and answers their results, in order */
  constructor (
    private readonly groupTx: (jobs: Array<(g: Group) => unknown>) => unknown[],
    private readonly busyMs: number,
    private readonly gatherTurns: number
  ) {}

  /** Runs `run` in the transaction that commits the open group (after gatherTurns turns). */
  write<T>(run: (g: Group) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.pending.push({ run, resolve: resolve as (v: unknown) => void, reject }) === 1) {
        this.commitAfter(this.gatherTurns)
      }
    })
  }

  /** Commits after `turns` more turns of the event loop (setImmediate: the loop does not sleep meanwhile). */
  private commitAfter (turns: number): void {
    setImmediate(() => {
      if (turns > 0) this.commitAfter(turns - 1)
      else this.commit()
    })
  }

  private commit (): void {
    const jobs = this.pending
    let out: unknown[]
    try {
      out = this.groupTx(jobs.map(j => j.run))
    } catch (err) {
      const now = Date.now()
      if (
        (err as { code?: string }).code === 'SQLITE_BUSY' &&
        (this.busySince === 0 || now - this.busySince < this.busyMs)
      ) {
        // another process writes: the group (and whatever joins it) tries again, first on the
        // next turns, then every millisecond; the rows it read are read again then
        if (this.busySince === 0) this.busySince = now
        if (++this.tries <= 20) setImmediate(() => this.commit())
        else setTimeout(() => this.commit(), 1)
        return
      }
      this.pending = []
      this.busySince = this.tries = 0
      for (const j of jobs) j.reject(err)
      return
    }
    this.pending = []
    this.busySince = this.tries = 0
    for (let i = 0; i < jobs.length; i++) jobs[i]!.resolve(out[i])
  }
}
