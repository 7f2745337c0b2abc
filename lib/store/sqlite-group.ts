// The rows one group of the SQLite store's writes works on (sqlite.ts: group commit).
import type { RateCount } from './types.js'

export interface Stmt {
  run(...params: unknown[]): unknown
  get(...params: unknown[]): unknown
  all(...params: unknown[]): unknown[]
}

export interface Count {
  k: string
  used: number
  expires: number
  dirty: boolean
}

/**
 * The rows one group of charges works on, inside its transaction (which holds the write lock, so
 * nobody else changes them meanwhile): each rate window and counter is read once, counted and
 * charged in memory in the order the charges were asked, and written back once with the history's
 * sums, so that a group of charges of one key costs five statements, not five each.
 */
export class Group {
  private readonly windows = new Map<string, { count: number; ends: number }>()
  private readonly counts = new Map<string, Count>()
  private readonly hist = new Map<string, [string, string, string, number]>()
  constructor (private readonly s: Record<'getWindow' | 'putWindow' | 'get2' | 'put2' | 'hist', Stmt>) {}

  /** a fixed window, started by its first request, on the wall clock */
  count (key: string, windowMs: number, now: number): RateCount {
    let w = this.windows.get(key)
    if (w === undefined) {
      const row = this.s.getWindow.get(key) as [number, number] | undefined
      w = row === undefined ? { count: 0, ends: 0 } : { count: row[0], ends: row[1] }
      this.windows.set(key, w)
    }
    if (w.ends <= now) {
      w.count = 1
      w.ends = now + windowMs
    } else w.count++
    return { current: w.count, ttl: w.ends - now }
  }

  /** the day's and the month's counters (new ones expire at the times given) */
  counters (dk: string, dayExpires: number, mk: string, monthExpires: number): [Count, Count] {
    let d = this.counts.get(dk)
    let m = this.counts.get(mk)
    if (d === undefined || m === undefined) {
      const row = this.s.get2.get(dk, mk) as [number | null, number | null]
      if (d === undefined) this.counts.set(dk, (d = { k: dk, used: row[0] ?? 0, expires: dayExpires, dirty: false }))
      if (m === undefined) this.counts.set(mk, (m = { k: mk, used: row[1] ?? 0, expires: monthExpires, dirty: false }))
    }
    return [d, m]
  }

  history (id: string, day: string, op: string, units: number): void {
    const k = `${id}\n${day}\n${op}`
    const h = this.hist.get(k)
    if (h === undefined) this.hist.set(k, [id, day, op, units])
    else h[3] += units
  }

  write (): void {
    for (const [k, w] of this.windows) this.s.putWindow.run(k, w.count, w.ends)
    // two counters a statement (a day's and its month's, as they were read)
    const dirty = [...this.counts.values()].filter(c => c.dirty)
    for (let i = 0; i < dirty.length; i += 2) {
      const a = dirty[i]!
      const b = dirty[i + 1] ?? a
      this.s.put2.run(a.k, a.used, a.expires, b.k, b.used, b.expires)
    }
    for (const h of this.hist.values()) this.s.hist.run(...h)
  }
}
