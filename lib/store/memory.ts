// A store in process memory (counts lost on restart; no longer the embedded default, which is
// SqliteStore): counters in memory, keys in DATA_DIR/keys.json so that the key CLI
// and a running server agree (the server re-reads the file when it changes).
import { readFileSync, statSync, writeFileSync, mkdirSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import { counter, periods, type ChargeResult, type DayUsage, type KeyRecord, type Limits, type MeterResult, type QuotaKind, type RateCount, type RateWindow, type Store } from './types.js'

export class MemoryStore implements Store {
  readonly kind = 'memory' as const
  private readonly counters = new Map<string, number>()
  private readonly daily = new Map<string, number>()
  private readonly windows = new Map<string, { count: number, ends: number }>()
  private keys = new Map<string, KeyRecord>()
  private mtime = -1
  private readonly file: string | null

  constructor (dataDir: string | null) {
    this.file = dataDir === null ? null : join(dataDir, 'keys.json')
    this.reload()
  }

  private reload (): void {
    if (this.file === null) return
    let m: number
    try { m = statSync(this.file).mtimeMs } catch { m = 0 }
    if (m === this.mtime) return
    this.mtime = m
    const next = new Map<string, KeyRecord>()
    if (m !== 0) {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as { keys: KeyRecord[] }
      for (const k of data.keys) next.set(k.hash, k)
    }
    this.keys = next
  }

  private persist (): void {
    if (this.file === null) return
    mkdirSync(join(this.file, '..'), { recursive: true })
    const tmp = this.file + '.' + process.pid + '.tmp'
    writeFileSync(tmp, JSON.stringify({ keys: [...this.keys.values()] }, null, 2), { mode: 0o600 })
    renameSync(tmp, this.file)
    this.mtime = statSync(this.file).mtimeMs
  }

  async getKeyByHash (hash: string): Promise<KeyRecord | null> {
    this.reload()
    return this.keys.get(hash) ?? null
  }

  async putKey (record: KeyRecord): Promise<void> {
    this.reload()
    this.keys.set(record.hash, record)
    this.persist()
  }

  async listKeys (): Promise<KeyRecord[]> {
    this.reload()
    return [...this.keys.values()]
  }

  async deleteKey (idOrHash: string): Promise<KeyRecord | null> {
    this.reload()
    for (const k of this.keys.values()) {
      if (k.id === idOrHash || k.hash === idOrHash) {
        this.keys.delete(k.hash)
        this.persist()
        return k
      }
    }
    return null
  }

  // Fixed windows started by their first request, on the wall clock, as @fastify/rate-limit's own
  // stores count them.
  private count (key: string, windowMs: number): RateCount {
    const now = Date.now()
    let w = this.windows.get(key)
    if (w === undefined || w.ends <= now) {
      // one window per key and client address seen: forget the ended ones now and then
      if (this.windows.size >= 10_000) for (const [k, v] of this.windows) if (v.ends <= now) this.windows.delete(k)
      w = { count: 0, ends: now + windowMs }
      this.windows.set(key, w)
    }
    w.count++
    return { current: w.count, ttl: w.ends - now }
  }

  async hit (key: string, windowMs: number): Promise<RateCount> {
    return this.count(key, windowMs)
  }

  // Synchronous count, check and add: atomic within the one process that owns this store.
  async meter (rate: RateWindow | null, id: string, kind: QuotaKind, units: number, limits: Limits, now: Date, op: string): Promise<MeterResult> {
    const r = rate === null ? null : this.count(rate.key, rate.windowMs)
    if (rate !== null && r !== null && r.current > rate.max) return { rate: r, limited: true, charge: null }
    return { rate: r, limited: false, charge: this.chargeNow(id, kind, units, limits, now, op) }
  }

  async charge (id: string, kind: QuotaKind, units: number, limits: Limits, now: Date, op: string): Promise<ChargeResult> {
    return this.chargeNow(id, kind, units, limits, now, op)
  }

  private chargeNow (id: string, kind: QuotaKind, units: number, limits: Limits, now: Date, op: string): ChargeResult {
    const p = periods(now)
    const dk = `${id}:${kind}:d:${p.day}`
    const mk = `${id}:${kind}:m:${p.month}`
    const d = this.counters.get(dk) ?? 0
    const m = this.counters.get(mk) ?? 0
    let refusedBy: ChargeResult['refusedBy']
    if (limits.daily !== null && d + units > limits.daily) refusedBy = 'daily'
    else if (limits.monthly !== null && m + units > limits.monthly) refusedBy = 'monthly'
    if (refusedBy !== undefined) {
      return { ok: false, refusedBy, daily: counter(d, limits.daily, p.dayResetIso), monthly: counter(m, limits.monthly, p.monthResetIso) }
    }
    this.counters.set(dk, d + units)
    this.counters.set(mk, m + units)
    this.addDaily(id, p.day, op, units)
    return { ok: true, daily: counter(d + units, limits.daily, p.dayResetIso), monthly: counter(m + units, limits.monthly, p.monthResetIso) }
  }

  async refund (id: string, kind: QuotaKind, units: number, now: Date, op: string): Promise<void> {
    const p = periods(now)
    for (const k of [`${id}:${kind}:d:${p.day}`, `${id}:${kind}:m:${p.month}`]) {
      this.counters.set(k, Math.max(0, (this.counters.get(k) ?? 0) - units))
    }
    this.addDaily(id, p.day, op, -units)
  }

  private addDaily (id: string, day: string, op: string, units: number): void {
    const k = `${id}|${day}|${op}`
    this.daily.set(k, Math.max(0, (this.daily.get(k) ?? 0) + units))
  }

  async usage (id: string, kind: QuotaKind, limits: Limits, now: Date) {
    const p = periods(now)
    return {
      daily: counter(this.counters.get(`${id}:${kind}:d:${p.day}`) ?? 0, limits.daily, p.dayResetIso),
      monthly: counter(this.counters.get(`${id}:${kind}:m:${p.month}`) ?? 0, limits.monthly, p.monthResetIso)
    }
  }

  async history (id: string, now: Date, days: number): Promise<DayUsage[]> {
    const since = new Date(now.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10)
    const out: DayUsage[] = []
    for (const [k, units] of this.daily) {
      const [kid, day, op] = k.split('|') as [string, string, string]
      if (kid === id && day >= since && units > 0) out.push({ day, op, units })
    }
    return out.sort((a, b) => a.day.localeCompare(b.day) || a.op.localeCompare(b.op))
  }

  async ping (): Promise<void> {}
  async close (): Promise<void> {}
}
