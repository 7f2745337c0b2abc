// The shared store: keys, quota counters, rate windows and per-day history in Redis. A metered
// request's rate count and quota check-and-charge are one Lua script (atomic across replicas, one
// round trip). The client fails fast when Redis is gone: no offline queue, one retry, short
// timeouts, so a request gets a 503 within a second instead of hanging (with ioredis defaults it
// hangs 73-107 s).
import { Redis, type RedisOptions } from 'ioredis'
import { counter, periods, type ChargeResult, type DayUsage, type KeyRecord, type Limits, type MeterResult, type QuotaKind, type RateCount, type RateWindow, type Store } from './types.js'

// A rate window: fixed, started by its first request. One found without an expiry would never
// end, so it is given one.
const RATE = `
local function count (key, ms)
  local c = redis.call('INCR', key)
  local ttl = -1
  if c > 1 then ttl = redis.call('PTTL', key) end
  if ttl < 0 then
    redis.call('PEXPIRE', key, ms)
    ttl = ms
  end
  return c, ttl
end
`

const HIT = RATE + `
local c, ttl = count(KEYS[1], tonumber(ARGV[1]))
return {c, ttl}
`

// The whole cost of a metered request: its rate count, then (unless that is over the rate) the
// quota check and charge. Returns {charged, daily used, monthly used, why, rate count, rate ttl ms};
// why: 0 charged, 1 refused by the daily quota, 2 by the monthly one, 3 cancelled by an undo,
// 4 over the rate (nothing charged).
const METER = RATE + `
-- an undo got here first (this charge was re-sent after a reconnect): do nothing
if redis.call('EXISTS', KEYS[5]) == 1 then return {0, 0, 0, 3, 0, 0} end
local rc, rttl = 0, 0
local window = tonumber(ARGV[1])
if window >= 0 then
  rc, rttl = count(KEYS[1], window)
  if rc > tonumber(ARGV[2]) then return {0, 0, 0, 4, rc, rttl} end
end
local units = tonumber(ARGV[3])
local dl = tonumber(ARGV[4])
local ml = tonumber(ARGV[5])
local d = tonumber(redis.call('GET', KEYS[2]) or '0')
local m = tonumber(redis.call('GET', KEYS[3]) or '0')
if dl >= 0 and d + units > dl then return {0, d, m, 1, rc, rttl} end
if ml >= 0 and m + units > ml then return {0, d, m, 2, rc, rttl} end
d = redis.call('INCRBY', KEYS[2], units)
m = redis.call('INCRBY', KEYS[3], units)
redis.call('EXPIRE', KEYS[2], ARGV[6])
redis.call('EXPIRE', KEYS[3], ARGV[7])
redis.call('HINCRBY', KEYS[4], ARGV[8], units)
redis.call('EXPIRE', KEYS[4], 2764800)
-- a marker naming what was charged, so a charge whose reply was lost can be undone exactly once
redis.call('SET', KEYS[5], KEYS[2] .. '|' .. KEYS[3] .. '|' .. KEYS[4] .. '|' .. ARGV[8] .. '|' .. units, 'EX', 120)
return {1, d, m, 0, rc, rttl}
`

const UNDO = `
local v = redis.call('GET', KEYS[1])
-- leave a tombstone either way, so that a late copy of the charge is refused
redis.call('SET', KEYS[1], 'undone', 'EX', 120)
if (not v) or v == 'undone' then return 0 end
local parts = {}
for p in string.gmatch(v, '[^|]+') do table.insert(parts, p) end
local units = tonumber(parts[5])
for i = 1, 2 do
  local c = redis.call('DECRBY', parts[i], units)
  if c < 0 then redis.call('SET', parts[i], 0, 'KEEPTTL') end
end
local h = redis.call('HINCRBY', parts[3], parts[4], -units)
if h <= 0 then redis.call('HDEL', parts[3], parts[4]) end
return 1
`

const REFUND = `
local units = tonumber(ARGV[1])
for i = 1, 2 do
  local v = redis.call('DECRBY', KEYS[i], units)
  if v < 0 then redis.call('SET', KEYS[i], 0, 'KEEPTTL') end
end
local h = redis.call('HINCRBY', KEYS[3], ARGV[2], -units)
if h <= 0 then redis.call('HDEL', KEYS[3], ARGV[2]) end
return 1
`

type HitFn = (key: string, windowMs: number) => Promise<[number, number]>
type MeterFn = (rate: string, d: string, m: string, h: string, marker: string, windowMs: number, max: number, units: number, dl: number, ml: number, dttl: number, mttl: number, op: string) => Promise<[number, number, number, number, number, number]>
type UndoFn = (marker: string) => Promise<number>
type RefundFn = (d: string, m: string, h: string, units: number, op: string) => Promise<number>

export function redisOptions (timeoutMs: number): RedisOptions {
  return {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    // keep reconnecting in the background, at most once a second, so service resumes by itself
    retryStrategy: (times) => Math.min(times * 100, 1000),
    lazyConnect: true
  }
}

export class RedisStore implements Store {
  readonly kind = 'redis' as const
  readonly client: Redis
  private readonly prefix: string

  constructor (url: string, opts: { timeoutMs: number, prefix?: string }) {
    this.client = new Redis(url, redisOptions(opts.timeoutMs))
    this.prefix = opts.prefix ?? 'otia:'
    // defineCommand: EVALSHA, and EVAL only when Redis does not have the script yet
    this.client.defineCommand('otiaHit', { numberOfKeys: 1, lua: HIT })
    this.client.defineCommand('otiaMeter', { numberOfKeys: 5, lua: METER })
    this.client.defineCommand('otiaUndo', { numberOfKeys: 1, lua: UNDO })
    this.client.defineCommand('otiaRefund', { numberOfKeys: 3, lua: REFUND })
    // errors are reported through the commands that fail; an unhandled 'error' event would crash
    this.client.on('error', () => {})
  }

  /** Connects, waiting at most `ms`; resolves false if Redis did not answer in time. */
  async connect (ms: number): Promise<boolean> {
    const ok = this.client.connect().then(() => true, () => false)
    const timer = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())
    return Promise.race([ok, timer])
  }

  private k (...parts: string[]): string { return this.prefix + parts.join(':') }

  async getKeyByHash (hash: string): Promise<KeyRecord | null> {
    const v = await this.client.get(this.k('key', hash))
    return v === null ? null : JSON.parse(v) as KeyRecord
  }

  async putKey (record: KeyRecord): Promise<void> {
    await this.client.multi()
      .set(this.k('key', record.hash), JSON.stringify(record))
      .hset(this.k('keys'), record.id, record.hash)
      .exec()
  }

  async listKeys (): Promise<KeyRecord[]> {
    const hashes = Object.values(await this.client.hgetall(this.k('keys')))
    if (hashes.length === 0) return []
    const values = await this.client.mget(hashes.map((h) => this.k('key', h)))
    return values.filter((v): v is string => v !== null).map((v) => JSON.parse(v) as KeyRecord)
  }

  async deleteKey (idOrHash: string): Promise<KeyRecord | null> {
    const hash = (await this.client.hget(this.k('keys'), idOrHash)) ?? idOrHash
    const rec = await this.getKeyByHash(hash)
    if (rec === null) return null
    await this.client.multi().del(this.k('key', rec.hash)).hdel(this.k('keys'), rec.id).exec()
    return rec
  }

  private keysFor (id: string, kind: QuotaKind, now: Date) {
    const p = periods(now)
    return {
      p,
      d: this.k('q', id, kind, 'd', p.day),
      m: this.k('q', id, kind, 'm', p.month),
      h: this.k('h', id, p.day)
    }
  }

  async hit (key: string, windowMs: number): Promise<RateCount> {
    const hit = (this.client as unknown as { otiaHit: HitFn }).otiaHit
    const [current, ttl] = await hit.call(this.client, this.k('rl', key), windowMs)
    return { current, ttl }
  }

  async meter (rate: RateWindow | null, id: string, kind: QuotaKind, units: number, limits: Limits, now: Date, op: string, token?: string): Promise<MeterResult> {
    const { p, d, m, h } = this.keysFor(id, kind, now)
    const marker = this.k('charge', token ?? `${process.pid}-${Date.now()}-${Math.random()}`)
    // counters outlive their period by a day, so a clock a little off never resurrects one
    const dttl = Math.ceil((p.dayReset.getTime() - now.getTime()) / 1000) + 86_400
    const mttl = Math.ceil((p.monthReset.getTime() - now.getTime()) / 1000) + 86_400
    const meter = (this.client as unknown as { otiaMeter: MeterFn }).otiaMeter
    const [ok, du, mu, why, rc, rttl] = await meter.call(this.client, this.k('rl', rate?.key ?? ''), d, m, h, marker,
      rate?.windowMs ?? -1, rate?.max ?? 0, units, limits.daily ?? -1, limits.monthly ?? -1, dttl, mttl, op)
    if (why === 3) throw new Error('charge cancelled by an earlier undo')
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

  async charge (id: string, kind: QuotaKind, units: number, limits: Limits, now: Date, op: string, token?: string): Promise<ChargeResult> {
    return (await this.meter(null, id, kind, units, limits, now, op, token)).charge as ChargeResult
  }

  /** Undoes the charge made under `token`, if it happened and was not undone yet. */
  async undo (token: string): Promise<boolean> {
    const undo = (this.client as unknown as { otiaUndo: UndoFn }).otiaUndo
    return (await undo.call(this.client, this.k('charge', token))) === 1
  }

  async refund (id: string, kind: QuotaKind, units: number, now: Date, op: string): Promise<void> {
    const { d, m, h } = this.keysFor(id, kind, now)
    const refund = (this.client as unknown as { otiaRefund: RefundFn }).otiaRefund
    await refund.call(this.client, d, m, h, units, op)
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
      pipe.hgetall(this.k('h', id, day))
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
    this.client.disconnect()
  }
}
