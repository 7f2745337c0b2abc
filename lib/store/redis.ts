// The shared store: keys, quota counters, rate windows and per-day history in Redis. A metered
// request's rate count and quota check-and-charge are one Lua script (atomic across replicas, one
// round trip). The client fails fast when Redis is gone: no offline queue, one retry, short
// timeouts, so a request gets a 503 within a second instead of hanging (with ioredis defaults it
// hangs 73-107 s).
// Every key a script touches carries the key id as its hash tag ({id}), and the key records share
// the tag {keys}: each script and transaction stays in one slot of a Redis Cluster. With `wait=N`
// in REDIS_URL a charge is answered only once N replicas have it (WAIT); REDIS_URL forms and the
// caveats are in redis-url.ts; the client, its options and the WAIT round trip in redis-client.ts.
import type { Cluster, Redis, ChainableCommander } from 'ioredis'
import { parseRedisUrl } from './redis-url.js'
import { migrateLegacyKeys } from './redis-migrate.js'
import { bounded, fewestReplicas, redisClient, withWait } from './redis-client.js'
import type { HitFn, MeterFn, RefundFn, UndoFn } from './redis-scripts.js'
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

export class RedisStore implements Store {
  readonly kind = 'redis' as const
  readonly client: Redis | Cluster
  readonly mode: 'single' | 'sentinel' | 'cluster'
  /** replicas that must acknowledge a charge before it is answered */
  private readonly wait: number
  private readonly timeoutMs: number
  private readonly prefix: string
  // replicas connected to the primary (under a Cluster: the fewest any master has), polled each
  // second: WAIT asks for no more than there are. A primary left without replicas (its replica
  // promoted away or down) cannot lose a write to a failover, and waiting for one would stop
  // every charge until one comes back.
  private replicas: number
  private poller: NodeJS.Timeout | null = null
  // the replicas are counted on a connection of their own: on the main one, ROLE would wait behind
  // the WAITs in flight
  private watcher: Redis | Cluster | null = null

  constructor (url: string, opts: { timeoutMs: number; prefix?: string }) {
    const target = parseRedisUrl(url)
    this.mode = target.mode
    this.wait = target.wait
    this.timeoutMs = opts.timeoutMs
    this.replicas = this.wait
    this.client = redisClient(target, opts.timeoutMs)
    this.prefix = opts.prefix ?? 'otia:'
  }

  /** Connects, waiting at most `ms`; resolves false if Redis did not answer in time. */
  async connect (ms: number): Promise<boolean> {
    const ok = this.client.connect().then(
      async () => {
        // keys named before hash tags, moved once (one server only: no cluster ran that version)
        if (this.mode !== 'cluster') await migrateLegacyKeys(this.client as Redis, this.prefix)
        if (this.wait > 0) {
          this.watcher = this.client.duplicate()
          this.watcher.on('error', () => {})
          await this.watcher.connect().catch(() => {})
          await this.pollReplicas()
          this.poller ??= setInterval(() => {
            void this.pollReplicas()
          }, 1000).unref()
        }
        return true
      },
      () => false
    )
    const timer = new Promise<boolean>(resolve => setTimeout(() => resolve(false), ms).unref())
    return Promise.race([ok, timer])
  }

  /** a key in the slot of `tag` */
  private t (tag: string, ...parts: string[]): string {
    return `${this.prefix}{${tag}}:${parts.join(':')}`
  }

  /** a rate window: a key's window (k:<id>) shares the slot of that key's quota counters */
  private rl (key: string): string {
    return this.t(key.startsWith('k:') ? key.slice(2) : key, 'rl', key)
  }

  private async pollReplicas (): Promise<void> {
    try {
      const w = this.watcher
      if (w === null) return
      const fewest = await fewestReplicas(w)
      if (fewest !== null) this.replicas = fewest
    } catch {
      /* unreachable: keep the last count */
    }
  }

  /** A request's store call, given up after the time-out (redis-client.ts bounded). */
  private bounded<T>(call: Promise<T>): Promise<T> {
    return bounded(call, this.timeoutMs)
  }

  /**
   * Sends `first` and, when the URL asks for replicas, WAIT in the same round trip (redis-client.ts withWait):
   * no more replicas than are connected.
   */
  private async withWait<T>(
    first: (p: ChainableCommander) => ChainableCommander
  ): Promise<{ reply: T; acked: number; wanted: number }> {
    return withWait<T>(this.client, Math.min(this.wait, this.replicas), this.timeoutMs, first)
  }

  private checkReplicated ({ acked, wanted }: { acked: number; wanted: number }): void {
    if (acked < wanted) throw new Error(`the write reached ${acked} of ${wanted} replicas in ${this.timeoutMs} ms`)
  }

  async getKeyByHash (hash: string): Promise<KeyRecord | null> {
    const v = await this.bounded(this.client.get(this.t('keys', 'key', hash)))
    return v === null ? null : (JSON.parse(v) as KeyRecord)
  }

  async putKey (record: KeyRecord): Promise<void> {
    await this.client
      .multi()
      .set(this.t('keys', 'key', record.hash), JSON.stringify(record))
      .hset(this.t('keys', 'keys'), record.id, record.hash)
      .exec()
  }

  async listKeys (): Promise<KeyRecord[]> {
    const hashes = Object.values(await this.client.hgetall(this.t('keys', 'keys')))
    if (hashes.length === 0) return []
    const values = await this.client.mget(hashes.map(h => this.t('keys', 'key', h)))
    return values.filter((v): v is string => v !== null).map(v => JSON.parse(v) as KeyRecord)
  }

  async deleteKey (idOrHash: string): Promise<KeyRecord | null> {
    const hash = (await this.client.hget(this.t('keys', 'keys'), idOrHash)) ?? idOrHash
    const rec = await this.getKeyByHash(hash)
    if (rec === null) return null
    await this.client
      .multi()
      .del(this.t('keys', 'key', rec.hash))
      .hdel(this.t('keys', 'keys'), rec.id)
      .exec()
    return rec
  }

  private keysFor (id: string, kind: QuotaKind, now: Date) {
    const p = periods(now)
    return {
      p,
      d: this.t(id, 'q', kind, 'd', p.day),
      m: this.t(id, 'q', kind, 'm', p.month),
      h: this.t(id, 'h', p.day)
    }
  }

  async hit (key: string, windowMs: number): Promise<RateCount> {
    const hit = (this.client as unknown as { otiaHit: HitFn }).otiaHit
    const [current, ttl] = await this.bounded(hit.call(this.client, this.rl(key), windowMs))
    return { current, ttl }
  }

  async meter (
    rate: RateWindow | null,
    id: string,
    kind: QuotaKind,
    units: number,
    limits: Limits,
    now: Date,
    op: string,
    token?: string
  ): Promise<MeterResult> {
    const { p, d, m, h } = this.keysFor(id, kind, now)
    const marker = this.t(id, 'charge', token ?? `${process.pid}-${Date.now()}-${Math.random()}`)
    // counters outlive their period by a day, so a clock a little off never resurrects one
    const dttl = Math.ceil((p.dayReset.getTime() - now.getTime()) / 1000) + 86_400
    const mttl = Math.ceil((p.monthReset.getTime() - now.getTime()) / 1000) + 86_400
    const sent = await this.withWait<[number, number, number, number, number, number]>(p =>
      (p as unknown as { otiaMeter: MeterFn }).otiaMeter(
        rate === null ? this.t(id, 'rl', '-') : this.rl(rate.key),
        d,
        m,
        h,
        marker,
        rate?.windowMs ?? -1,
        rate?.max ?? 0,
        units,
        limits.daily ?? -1,
        limits.monthly ?? -1,
        dttl,
        mttl,
        op
      )
    )
    const [ok, du, mu, why, rc, rttl] = sent.reply
    if (why === 3) throw new Error('charge cancelled by an earlier undo')
    // charged but perhaps on the primary alone: the caller undoes it once the store answers
    if (why === 0) this.checkReplicated(sent)
    const counted = rate === null ? null : { current: rc, ttl: rttl }
    if (why === 4) return { rate: counted, limited: true, charge: null }
    return {
      rate: counted,
      limited: false,
      charge: {
        ok: ok === 1,
        ...(why === 1 ? { refusedBy: 'daily' as const } : why === 2 ? { refusedBy: 'monthly' as const } : {}),
        daily: counter(Number(du), limits.daily, p.dayResetIso),
        monthly: counter(Number(mu), limits.monthly, p.monthResetIso)
      }
    }
  }

  async charge (
    id: string,
    kind: QuotaKind,
    units: number,
    limits: Limits,
    now: Date,
    op: string,
    token?: string
  ): Promise<ChargeResult> {
    return (await this.meter(null, id, kind, units, limits, now, op, token)).charge as ChargeResult
  }

  /** Undoes the charge made for key `id` under `token`, if it happened and was not undone yet;
   * if it has not arrived yet, it will be refused when it does. */
  async undo (token: string, id: string): Promise<boolean> {
    const sent = await this.withWait<number>(p =>
      (p as unknown as { otiaUndo: UndoFn }).otiaUndo(this.t(id, 'charge', token))
    )
    this.checkReplicated(sent)
    return sent.reply === 1
  }

  async refund (id: string, kind: QuotaKind, units: number, now: Date, op: string): Promise<void> {
    const { d, m, h } = this.keysFor(id, kind, now)
    this.checkReplicated(
      await this.withWait<number>(p => (p as unknown as { otiaRefund: RefundFn }).otiaRefund(d, m, h, units, op))
    )
  }

  async usage (id: string, kind: QuotaKind, limits: Limits, now: Date) {
    const { p, d, m } = this.keysFor(id, kind, now)
    const [du, mu] = await this.client.mget(d, m)
    return {
      daily: counter(Number(du ?? 0), limits.daily, p.dayResetIso),
      monthly: counter(Number(mu ?? 0), limits.monthly, p.monthResetIso)
    }
  }

  async history (id: string, now: Date, days: number): Promise<DayUsage[]> {
    const pipe = this.client.pipeline()
    const dayNames: string[] = []
    for (let i = days - 1; i >= 0; i--) {
      const day = new Date(now.getTime() - i * 86_400_000).toISOString().slice(0, 10)
      dayNames.push(day)
      pipe.hgetall(this.t(id, 'h', day))
    }
    const res = await pipe.exec()
    const out: DayUsage[] = []
    res?.forEach(([err, v], i) => {
      if (err !== null) throw err
      for (const [op, units] of Object.entries(v as Record<string, string>)) {
        if (Number(units) > 0) out.push({ day: dayNames[i] as string, op, units: Number(units) })
      }
    })
    return out
  }

  async ping (): Promise<void> {
    await this.client.ping()
  }

  async close (): Promise<void> {
    if (this.poller !== null) clearInterval(this.poller)
    this.poller = null
    this.watcher?.disconnect()
    this.client.disconnect()
  }
}
