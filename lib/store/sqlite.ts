// The embedded store: keys, quota counters, rate windows and per-day history in one SQLite file
// (DATA_DIR/store.db, through libsql's synchronous better-sqlite3-style API). Every count, check
// and charge runs inside an IMMEDIATE transaction: atomic within a process (the call is
// synchronous) and across the processes of one machine (SQLite's write lock; a busy one is waited
// for up to busyMs, then the call fails and the request answers 503). Group commit: the charges
// asked for in one turn of the event loop run one after another in one transaction, and each
// promise settles once that transaction has committed, so an answer is never sent for a charge
// that is not on disk; the BEGIN and COMMIT, most of a lone charge's cost, are paid once per turn. WAL with synchronous=NORMAL: a
// committed charge survives the process being killed (kill -9); an operating-system crash or a
// power cut may lose the last commits (sync: 'full' would keep them, at ~10x the write time).
import Database from 'libsql'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { counter, periods, type ChargeResult, type DayUsage, type KeyRecord, type Limits, type MeterResult, type QuotaKind, type RateCount, type RateWindow, type Store } from './types.js'

type Db = ReturnType<typeof open>
interface Stmt { run (...params: unknown[]): unknown, get (...params: unknown[]): unknown, all (...params: unknown[]): unknown[] }

const SCHEMA = `
CREATE TABLE IF NOT EXISTS keys (hash TEXT PRIMARY KEY, id TEXT NOT NULL UNIQUE, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS counters (k TEXT PRIMARY KEY, used INTEGER NOT NULL, expires INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS history (id TEXT NOT NULL, day TEXT NOT NULL, op TEXT NOT NULL, units INTEGER NOT NULL, PRIMARY KEY (id, day, op));
CREATE TABLE IF NOT EXISTS windows (k TEXT PRIMARY KEY, count INTEGER NOT NULL, ends INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
`

function open (file: string, busyMs: number, sync: 'normal' | 'full') {
  const db = new Database(file)
  // the wait for another process's write lock comes first: switching to WAL itself may wait
  db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyMs))}`)
  db.exec('PRAGMA journal_mode = WAL')
  db.exec(`PRAGMA synchronous = ${sync === 'full' ? 'FULL' : 'NORMAL'}`)
  return db
}

/** the first column of a raw statement's first row (libsql's pluck() does not pluck) */
function one (stmt: Stmt, ...params: unknown[]): unknown {
  return (stmt.get(...params) as unknown[] | undefined)?.[0]
}

// Counters outlive their period by a day (as on Redis), then are deleted now and then.
const DAY = 86_400_000
const HISTORY_DAYS = 32

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const
  readonly file: string
  private readonly db: Db
  private readonly s: Record<'window' | 'get' | 'getWindow' | 'putWindow' | 'get2' | 'put2' | 'sub' | 'hist' | 'key' | 'keys' | 'keyById' | 'putKey' | 'delKey', Stmt>
  private q (sql: string): Stmt { return this.db.prepare(sql) as unknown as Stmt }
  private readonly groupTx: (jobs: Array<(g: Group) => MeterResult>) => MeterResult[]
  private readonly refundTx: (id: string, kind: QuotaKind, units: number, now: Date, op: string) => void
  private sweeper: NodeJS.Timeout | null = null
  private hits = 0
  private pending: Array<{ run: (g: Group) => MeterResult, resolve: (r: MeterResult) => void, reject: (e: unknown) => void }> = []

  constructor (dataDir: string, opts: { busyMs?: number, sync?: 'normal' | 'full' } = {}) {
    mkdirSync(dataDir, { recursive: true })
    this.file = join(dataDir, 'store.db')
    this.db = open(this.file, opts.busyMs ?? 2000, opts.sync ?? 'normal')
    this.db.exec(SCHEMA)
    const p = (sql: string): Stmt & { raw (): Stmt } => this.db.prepare(sql) as unknown as Stmt & { raw (): Stmt }
    this.s = {
      // a fixed window, started by its first request, on the wall clock
      window: p(`INSERT INTO windows (k, count, ends) VALUES (?1, 1, ?2 + ?3)
        ON CONFLICT (k) DO UPDATE SET count = CASE WHEN ends <= ?2 THEN 1 ELSE count + 1 END,
          ends = CASE WHEN ends <= ?2 THEN ?2 + ?3 ELSE ends END
        RETURNING count, ends`),
      get: p('SELECT used FROM counters WHERE k = ?').raw(),
      // a group's rows: read once, worked on in memory, written back once (Group)
      getWindow: p('SELECT count, ends FROM windows WHERE k = ?').raw(),
      putWindow: p(`INSERT INTO windows (k, count, ends) VALUES (?1, ?2, ?3)
        ON CONFLICT (k) DO UPDATE SET count = excluded.count, ends = excluded.ends`),
      get2: p('SELECT (SELECT used FROM counters WHERE k = ?1), (SELECT used FROM counters WHERE k = ?2)').raw(),
      put2: p(`INSERT INTO counters (k, used, expires) VALUES (?1, ?2, ?3), (?4, ?5, ?6)
        ON CONFLICT (k) DO UPDATE SET used = excluded.used`),
      sub: p('UPDATE counters SET used = max(0, used - ?2) WHERE k = ?1'),
      hist: p(`INSERT INTO history (id, day, op, units) VALUES (?1, ?2, ?3, max(0, ?4))
        ON CONFLICT (id, day, op) DO UPDATE SET units = max(0, units + ?4)`),
      key: p('SELECT record FROM keys WHERE hash = ?').raw(),
      keys: p('SELECT record FROM keys ORDER BY rowid').raw(),
      keyById: p('SELECT record FROM keys WHERE id = ?1 OR hash = ?1').raw(),
      putKey: p('INSERT OR REPLACE INTO keys (hash, id, record) VALUES (?, ?, ?)'),
      delKey: p('DELETE FROM keys WHERE hash = ?')
    }
    this.groupTx = this.db.transaction((jobs: Array<(g: Group) => MeterResult>) => {
      const g = new Group(this.s)
      const out = jobs.map((run) => run(g))
      g.write()
      return out
    }).immediate
    this.refundTx = this.db.transaction(this.refundNow.bind(this)).immediate
    this.importKeyFile(dataDir)
    this.sweep()
  }

  // The keys of the JSON file the embedded store used before (DATA_DIR/keys.json), once.
  private importKeyFile (dataDir: string): void {
    const file = join(dataDir, 'keys.json')
    if (!existsSync(file)) return
    this.db.transaction(() => {
      if (this.q("SELECT 1 FROM meta WHERE name = 'imported keys.json'").get() !== undefined) return
      const data = JSON.parse(readFileSync(file, 'utf8')) as { keys: KeyRecord[] }
      for (const k of data.keys) this.s.putKey.run(k.hash, k.id, JSON.stringify(k))
      this.q("INSERT INTO meta (name, value) VALUES ('imported keys.json', ?)").run(new Date().toISOString())
    }).immediate()
  }

  /** Deletes ended rate windows, counters a day past their period and history past 32 days. */
  sweep (now = Date.now()): void {
    this.db.transaction(() => {
      this.q('DELETE FROM windows WHERE ends <= ?').run(now)
      this.q('DELETE FROM counters WHERE expires <= ?').run(now)
      this.q('DELETE FROM history WHERE day < ?').run(new Date(now - HISTORY_DAYS * DAY).toISOString().slice(0, 10))
    }).immediate()
    this.sweeper ??= setInterval(() => { try { this.sweep() } catch { /* busy: next time */ } }, 3600_000).unref()
  }

  async getKeyByHash (hash: string): Promise<KeyRecord | null> {
    const v = one(this.s.key, hash) as string | undefined
    return v === undefined ? null : JSON.parse(v) as KeyRecord
  }

  async putKey (record: KeyRecord): Promise<void> {
    this.s.putKey.run(record.hash, record.id, JSON.stringify(record))
  }

  async listKeys (): Promise<KeyRecord[]> {
    return (this.s.keys.all() as string[][]).map((v) => JSON.parse(v[0] as string) as KeyRecord)
  }

  async deleteKey (idOrHash: string): Promise<KeyRecord | null> {
    return this.db.transaction(() => {
      const v = one(this.s.keyById, idOrHash) as string | undefined
      if (v === undefined) return null
      const rec = JSON.parse(v) as KeyRecord
      this.s.delKey.run(rec.hash)
      return rec
    }).immediate()
  }

  private count (key: string, windowMs: number, now: number): RateCount {
    // ended windows are swept hourly, and also every 100,000 counts
    if (++this.hits % 100_000 === 0) this.q('DELETE FROM windows WHERE ends <= ?').run(now)
    const row = this.s.window.get(key, now, windowMs) as { count: number, ends: number }
    return { current: row.count, ttl: row.ends - now }
  }

  async hit (key: string, windowMs: number): Promise<RateCount> {
    return this.count(key, windowMs, Date.now())
  }

  async meter (rate: RateWindow | null, id: string, kind: QuotaKind, units: number, limits: Limits, now: Date, op: string): Promise<MeterResult> {
    return this.grouped((g) => this.meterNow(g, rate, id, kind, units, limits, now, op))
  }

  async charge (id: string, kind: QuotaKind, units: number, limits: Limits, now: Date, op: string): Promise<ChargeResult> {
    return (await this.grouped((g) => this.meterNow(g, null, id, kind, units, limits, now, op))).charge as ChargeResult
  }

  /** Runs `run` in the transaction that commits the charges of this turn of the event loop. */
  private grouped (run: (g: Group) => MeterResult): Promise<MeterResult> {
    return new Promise((resolve, reject) => {
      if (this.pending.push({ run, resolve, reject }) === 1) setImmediate(() => this.commit())
    })
  }

  private commit (): void {
    const jobs = this.pending
    this.pending = []
    let out: MeterResult[]
    try {
      out = this.groupTx(jobs.map((j) => j.run))
    } catch (err) {
      for (const j of jobs) j.reject(err)
      return
    }
    for (let i = 0; i < jobs.length; i++) jobs[i]!.resolve(out[i]!)
  }

  private meterNow (g: Group, rate: RateWindow | null, id: string, kind: QuotaKind, units: number, limits: Limits, now: Date, op: string): MeterResult {
    if (++this.hits % 100_000 === 0) this.q('DELETE FROM windows WHERE ends <= ?').run(Date.now())
    const r = rate === null ? null : g.count(rate.key, rate.windowMs, Date.now())
    if (rate !== null && r !== null && r.current > rate.max) return { rate: r, limited: true, charge: null }
    const p = periods(now)
    const [d, m] = g.counters(`${id}:${kind}:d:${p.day}`, p.dayReset.getTime() + DAY, `${id}:${kind}:m:${p.month}`, p.monthReset.getTime() + DAY)
    let refusedBy: ChargeResult['refusedBy']
    if (limits.daily !== null && d.used + units > limits.daily) refusedBy = 'daily'
    else if (limits.monthly !== null && m.used + units > limits.monthly) refusedBy = 'monthly'
    if (refusedBy !== undefined) {
      return { rate: r, limited: false, charge: { ok: false, refusedBy, daily: counter(d.used, limits.daily, p.dayResetIso), monthly: counter(m.used, limits.monthly, p.monthResetIso) } }
    }
    d.used += units
    m.used += units
    d.dirty = m.dirty = true
    g.history(id, p.day, op, units)
    return { rate: r, limited: false, charge: { ok: true, daily: counter(d.used, limits.daily, p.dayResetIso), monthly: counter(m.used, limits.monthly, p.monthResetIso) } }
  }

  async refund (id: string, kind: QuotaKind, units: number, now: Date, op: string): Promise<void> {
    this.refundTx(id, kind, units, now, op)
  }

  private refundNow (id: string, kind: QuotaKind, units: number, now: Date, op: string): void {
    const p = periods(now)
    this.s.sub.run(`${id}:${kind}:d:${p.day}`, units)
    this.s.sub.run(`${id}:${kind}:m:${p.month}`, units)
    this.s.hist.run(id, p.day, op, -units)
  }

  async usage (id: string, kind: QuotaKind, limits: Limits, now: Date) {
    const p = periods(now)
    return {
      daily: counter((one(this.s.get, `${id}:${kind}:d:${p.day}`) as number | undefined) ?? 0, limits.daily, p.dayResetIso),
      monthly: counter((one(this.s.get, `${id}:${kind}:m:${p.month}`) as number | undefined) ?? 0, limits.monthly, p.monthResetIso)
    }
  }

  async history (id: string, now: Date, days: number): Promise<DayUsage[]> {
    const since = new Date(now.getTime() - (days - 1) * DAY).toISOString().slice(0, 10)
    const rows = this.q('SELECT day, op, units FROM history WHERE id = ? AND day >= ? AND units > 0 ORDER BY day, op').all(id, since) as Array<DayUsage & { _metadata?: unknown }>
    return rows.map((r) => ({ day: r.day, op: r.op, units: r.units }))
  }

  async ping (): Promise<void> {
    this.q('SELECT 1').get()
  }

  async close (): Promise<void> {
    if (this.sweeper !== null) clearInterval(this.sweeper)
    this.sweeper = null
    if (this.db.open) this.db.close()
  }
}

interface Count { k: string, used: number, expires: number, dirty: boolean }

/**
 * The rows one group of charges works on, inside its transaction (which holds the write lock, so
 * nobody else changes them meanwhile): each rate window and counter is read once, counted and
 * charged in memory in the order the charges were asked, and written back once with the history's
 * sums, so that a group of charges of one key costs five statements, not five each.
 */
class Group {
  private readonly windows = new Map<string, { count: number, ends: number }>()
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
    if (w.ends <= now) { w.count = 1; w.ends = now + windowMs } else w.count++
    return { current: w.count, ttl: w.ends - now }
  }

  /** the day's and the month's counters (new ones expire at the times given) */
  counters (dk: string, dayExpires: number, mk: string, monthExpires: number): [Count, Count] {
    let d = this.counts.get(dk)
    let m = this.counts.get(mk)
    if (d === undefined || m === undefined) {
      const row = this.s.get2.get(dk, mk) as [number | null, number | null]
      if (d === undefined) this.counts.set(dk, d = { k: dk, used: row[0] ?? 0, expires: dayExpires, dirty: false })
      if (m === undefined) this.counts.set(mk, m = { k: mk, used: row[1] ?? 0, expires: monthExpires, dirty: false })
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
    const dirty = [...this.counts.values()].filter((c) => c.dirty)
    for (let i = 0; i < dirty.length; i += 2) {
      const a = dirty[i]!
      const b = dirty[i + 1] ?? a
      this.s.put2.run(a.k, a.used, a.expires, b.k, b.used, b.expires)
    }
    for (const h of this.hist.values()) this.s.hist.run(...h)
  }
}
