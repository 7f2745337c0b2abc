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
// at ~10x the write time). The group commit is in sqlite-commit.ts, the tables and statements in
// sqlite-db.ts.
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Group, type Stmt } from './sqlite-group.js'
import { GroupCommit } from './sqlite-commit.js'
import { SCHEMA, one, open, prepareStatements, type Db, type Statements } from './sqlite-db.js'
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
  private readonly s: Statements

  private q (sql: string): Stmt {
    return this.db.prepare(sql) as unknown as Stmt
  }

  private readonly commits: GroupCommit
  private sweeper: NodeJS.Timeout | null = null
  private hits = 0

  constructor (dataDir: string, opts: { busyMs?: number; sync?: 'normal' | 'full'; gatherTurns?: number } = {}) {
    mkdirSync(dataDir, { recursive: true })
    this.file = join(dataDir, 'store.db')
    const busyMs = opts.busyMs ?? 2000
    this.db = open(this.file, busyMs, opts.sync ?? 'normal')
    this.db.exec(SCHEMA)
    this.s = prepareStatements(this.db)
    const groupTx = this.db.transaction((jobs: Array<(g: Group) => unknown>) => {
      const g = new Group(this.s)
      const out = jobs.map(run => run(g))
      g.write()
      return out
    }).immediate
    this.commits = new GroupCommit(groupTx, busyMs, opts.gatherTurns ?? GATHER_TURNS)
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

  /** Runs `run` in the transaction that commits the open group (GATHER_TURNS; sqlite-commit.ts). */
  private write<T>(run: (g: Group) => T): Promise<T> {
    return this.commits.write(run)
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
