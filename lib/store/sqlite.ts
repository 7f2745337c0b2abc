// The embedded store: keys, quota counters, rate windows and per-day history in one SQLite file
// (DATA_DIR/store.db, through libsql's synchronous better-sqlite3-style API). Every count, check
// and charge runs inside an IMMEDIATE transaction: atomic within a process (the transaction is
// synchronous) and across the processes of one machine (SQLite's write lock). Group commit: the
// writes asked for in one turn of the event loop and the GATHER_TURNS turns after it (charges,
// rate counts, refunds, keys) run one after another in one transaction, and each promise settles
// once that transaction has committed, so an answer is never sent for a charge that is not on
// disk; the BEGIN and COMMIT, most of a lone charge's cost, are paid once per group. While
// another process holds the write lock the group is tried again on later turns, the event loop
// free meanwhile (SQLite's own busy wait would sleep in this thread), with the writes asked for in
// between joining it, for up to busyMs; then its calls fail and their requests answer 503. WAL
// with synchronous=NORMAL: a committed charge survives the process being killed (kill -9); an
// operating-system crash or a power cut may lose the last commits (sync: 'full' would keep them,
// at ~10x the write time).
import Database from 'libsql'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Group, type Stmt } from './sqlite-group.js'
import {
  counter,
  periods,
  type ChargeResult,
  type DayUsage,
  type KeyRecord,
  type Limits,
  type MeterResult,
  type QuotaKind,
  type RateCount,
  type RateWindow,
  type Store
} from './types.js'

type Db = ReturnType<typeof open>

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

/**
 * Turns of the event loop a group stays open after its first write, for the requests read in
 * them to join it. Under load the commits get fewer and the requests they release come in larger
 * bunches, which the text pool then sends to its workers in fewer, larger messages (single
 * sentiment texts, 10 connections: main thread 117 -> 102 us and text worker 36 -> 29 us of CPU per
 * request; docs/performance.md). On an idle service a turn with nothing to read costs a few
 * microseconds.
 */
const GATHER_TURNS = 2

// Counters outlive their period by a day (as on Redis), then are deleted now and then.
const DAY = 86_400_000
const HISTORY_DAYS = 32

export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const
  readonly file: string
  private readonly db: Db
  private readonly s: Record<
    'get' | 'getWindow' | 'putWindow' | 'get2' | 'put2' | 'hist' | 'key' | 'keys' | 'keyById' | 'putKey' | 'delKey',
    Stmt
  >

  private q (sql: string): Stmt {
    return this.db.prepare(sql) as unknown as Stmt
  }

  private readonly groupTx: (jobs: Array<(g: Group) => unknown>) => unknown[]
  private readonly busyMs: number
  private sweeper: NodeJS.Timeout | null = null
  private hits = 0
  private pending: Job[] = []
  /** when the pending group first found the write lock taken (0: it has not) */
  private busySince = 0
  private tries = 0
  private readonly gatherTurns: number

  constructor (dataDir: string, opts: { busyMs?: number; sync?: 'normal' | 'full'; gatherTurns?: number } = {}) {
    mkdirSync(dataDir, { recursive: true })
    this.file = join(dataDir, 'store.db')
    this.busyMs = opts.busyMs ?? 2000
    this.gatherTurns = opts.gatherTurns ?? GATHER_TURNS
    this.db = open(this.file, this.busyMs, opts.sync ?? 'normal')
    this.db.exec(SCHEMA)
    const p = (sql: string): Stmt & { raw(): Stmt } => this.db.prepare(sql) as unknown as Stmt & { raw(): Stmt }
    this.s = {
      get: p('SELECT used FROM counters WHERE k = ?').raw(),
      // a group's rows: read once, worked on in memory, written back once (Group)
      getWindow: p('SELECT count, ends FROM windows WHERE k = ?').raw(),
      putWindow: p(`INSERT INTO windows (k, count, ends) VALUES (?1, ?2, ?3)
        ON CONFLICT (k) DO UPDATE SET count = excluded.count, ends = excluded.ends`),
      get2: p('SELECT (SELECT used FROM counters WHERE k = ?1), (SELECT used FROM counters WHERE k = ?2)').raw(),
      put2: p(`INSERT INTO counters (k, used, expires) VALUES (?1, ?2, ?3), (?4, ?5, ?6)
        ON CONFLICT (k) DO UPDATE SET used = excluded.used`),
      hist: p(`INSERT INTO history (id, day, op, units) VALUES (?1, ?2, ?3, max(0, ?4))
        ON CONFLICT (id, day, op) DO UPDATE SET units = max(0, units + ?4)`),
      key: p('SELECT record FROM keys WHERE hash = ?').raw(),
      keys: p('SELECT record FROM keys ORDER BY rowid').raw(),
      keyById: p('SELECT record FROM keys WHERE id = ?1 OR hash = ?1').raw(),
      putKey: p('INSERT OR REPLACE INTO keys (hash, id, record) VALUES (?, ?, ?)'),
      delKey: p('DELETE FROM keys WHERE hash = ?')
    }
    this.groupTx = this.db.transaction((jobs: Array<(g: Group) => unknown>) => {
      const g = new Group(this.s)
      const out = jobs.map(run => run(g))
      g.write()
      return out
    }).immediate
    // opening waits for the lock as SQLite does; from here on the groups wait without blocking
    this.importKeyFile(dataDir)
    this.db.transaction(() => this.sweepNow(Date.now())).immediate()
    this.db.exec('PRAGMA busy_timeout = 0')
    this.sweeper = setInterval(() => {
      this.sweep().catch(() => {
        /* busy: next time */
      })
    }, 3600_000).unref()
  }

  // The keys of the JSON file the embedded store used before (DATA_DIR/keys.json), once.
  private importKeyFile (dataDir: string): void {
    const file = join(dataDir, 'keys.json')
    if (!existsSync(file)) return
    this.db
      .transaction(() => {
        if (this.q("SELECT 1 FROM meta WHERE name = 'imported keys.json'").get() !== undefined) return
        const data = JSON.parse(readFileSync(file, 'utf8')) as { keys: KeyRecord[] }
        for (const k of data.keys) this.s.putKey.run(k.hash, k.id, JSON.stringify(k))
        this.q("INSERT INTO meta (name, value) VALUES ('imported keys.json', ?)").run(new Date().toISOString())
      })
      .immediate()
  }

  /** Deletes ended rate windows, counters a day past their period and history past 32 days. */
  sweep (now = Date.now()): Promise<void> {
    return this.write(() => this.sweepNow(now))
  }

  /** (inside a transaction) */
  private sweepNow (now: number): void {
    this.q('DELETE FROM windows WHERE ends <= ?').run(now)
    this.q('DELETE FROM counters WHERE expires <= ?').run(now)
    this.q('DELETE FROM history WHERE day < ?').run(new Date(now - HISTORY_DAYS * DAY).toISOString().slice(0, 10))
  }

  async getKeyByHash (hash: string): Promise<KeyRecord | null> {
    const v = one(this.s.key, hash) as string | undefined
    return v === undefined ? null : (JSON.parse(v) as KeyRecord)
  }

  async putKey (record: KeyRecord): Promise<void> {
    await this.write(() => this.s.putKey.run(record.hash, record.id, JSON.stringify(record)))
  }

  async listKeys (): Promise<KeyRecord[]> {
    return (this.s.keys.all() as string[][]).map(v => JSON.parse(v[0] as string) as KeyRecord)
  }

  async deleteKey (idOrHash: string): Promise<KeyRecord | null> {
    return this.write(() => {
      const v = one(this.s.keyById, idOrHash) as string | undefined
      if (v === undefined) return null
      const rec = JSON.parse(v) as KeyRecord
      this.s.delKey.run(rec.hash)
      return rec
    })
  }

  async hit (key: string, windowMs: number): Promise<RateCount> {
    return this.write(g => {
      this.sweepWindows()
      return g.count(key, windowMs, Date.now())
    })
  }

  // ended windows are swept hourly, and also every 100,000 counts
  private sweepWindows (): void {
    if (++this.hits % 100_000 === 0) this.q('DELETE FROM windows WHERE ends <= ?').run(Date.now())
  }

  async meter (
    rate: RateWindow | null,
    id: string,
    kind: QuotaKind,
    units: number,
    limits: Limits,
    now: Date,
    op: string
  ): Promise<MeterResult> {
    return this.write(g => this.meterNow(g, rate, id, kind, units, limits, now, op))
  }

  async charge (
    id: string,
    kind: QuotaKind,
    units: number,
    limits: Limits,
    now: Date,
    op: string
  ): Promise<ChargeResult> {
    return (await this.write(g => this.meterNow(g, null, id, kind, units, limits, now, op))).charge as ChargeResult
  }

  /** Runs `run` in the transaction that commits the open group (GATHER_TURNS). */
  private write<T>(run: (g: Group) => T): Promise<T> {
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

  private meterNow (
    g: Group,
    rate: RateWindow | null,
    id: string,
    kind: QuotaKind,
    units: number,
    limits: Limits,
    now: Date,
    op: string
  ): MeterResult {
    this.sweepWindows()
    const r = rate === null ? null : g.count(rate.key, rate.windowMs, Date.now())
    if (rate !== null && r !== null && r.current > rate.max) return { rate: r, limited: true, charge: null }
    const p = periods(now)
    const [d, m] = g.counters(
      `${id}:${kind}:d:${p.day}`,
      p.dayReset.getTime() + DAY,
      `${id}:${kind}:m:${p.month}`,
      p.monthReset.getTime() + DAY
    )
    let refusedBy: ChargeResult['refusedBy']
    if (limits.daily !== null && d.used + units > limits.daily) refusedBy = 'daily'
    else if (limits.monthly !== null && m.used + units > limits.monthly) refusedBy = 'monthly'
    if (refusedBy !== undefined) {
      return {
        rate: r,
        limited: false,
        charge: {
          ok: false,
          refusedBy,
          daily: counter(d.used, limits.daily, p.dayResetIso),
          monthly: counter(m.used, limits.monthly, p.monthResetIso)
        }
      }
    }
    d.used += units
    m.used += units
    d.dirty = m.dirty = true
    g.history(id, p.day, op, units)
    return {
      rate: r,
      limited: false,
      charge: {
        ok: true,
        daily: counter(d.used, limits.daily, p.dayResetIso),
        monthly: counter(m.used, limits.monthly, p.monthResetIso)
      }
    }
  }

  async refund (id: string, kind: QuotaKind, units: number, now: Date, op: string): Promise<void> {
    await this.write(g => {
      const p = periods(now)
      const [d, m] = g.counters(
        `${id}:${kind}:d:${p.day}`,
        p.dayReset.getTime() + DAY,
        `${id}:${kind}:m:${p.month}`,
        p.monthReset.getTime() + DAY
      )
      d.used = Math.max(0, d.used - units)
      m.used = Math.max(0, m.used - units)
      d.dirty = m.dirty = true
      g.history(id, p.day, op, -units)
    })
  }

  async usage (id: string, kind: QuotaKind, limits: Limits, now: Date) {
    const p = periods(now)
    return {
      daily: counter(
        (one(this.s.get, `${id}:${kind}:d:${p.day}`) as number | undefined) ?? 0,
        limits.daily,
        p.dayResetIso
      ),
      monthly: counter(
        (one(this.s.get, `${id}:${kind}:m:${p.month}`) as number | undefined) ?? 0,
        limits.monthly,
        p.monthResetIso
      )
    }
  }

  async history (id: string, now: Date, days: number): Promise<DayUsage[]> {
    const since = new Date(now.getTime() - (days - 1) * DAY).toISOString().slice(0, 10)
    const rows = this.q(
      'SELECT day, op, units FROM history WHERE id = ? AND day >= ? AND units > 0 ORDER BY day, op'
    ).all(id, since) as Array<DayUsage & { _metadata?: unknown }>
    return rows.map(r => ({ day: r.day, op: r.op, units: r.units }))
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

interface Job {
  run: (g: Group) => unknown
  resolve: (v: unknown) => void
  reject: (e: unknown) => void
}
