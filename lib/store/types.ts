import type { Plan } from '../../schemas/env.js'

export type { Plan }
export type QuotaKind = 'text' | 'image'

export interface KeyRecord {
  id: string
  name: string
  /** sha256 of the key; the key itself is never stored */
  hash: string
  plan: Plan
  created: string
  source: 'store' | 'env' | 'dev'
}

export interface Limits {
  daily: number | null
  monthly: number | null
}

export interface Counter {
  used: number
  limit: number | null
  remaining: number | null
  /** ISO time at which this counter starts again from zero */
  reset: string
}

export interface ChargeResult {
  ok: boolean
  /** which period refused the charge */
  refusedBy?: 'daily' | 'monthly'
  daily: Counter
  monthly: Counter
}

/** A fixed window of `windowMs` allowing `max` requests, counted under `key`. */
export interface RateWindow {
  key: string
  windowMs: number
  max: number
}

export interface RateCount {
  /** requests counted in the current window, this one included */
  current: number
  /** milliseconds until the window starts again from zero */
  ttl: number
}

export interface MeterResult {
  /** the rate count; null when no rate window was given */
  rate: RateCount | null
  /** over the rate: nothing was charged and `charge` is null */
  limited: boolean
  charge: ChargeResult | null
}

export interface DayUsage {
  day: string
  op: string
  units: number
}

/**
 * What the service needs from a store. Three implementations: sqlite (embedded, the default:
 * DATA_DIR/store.db, shared by the processes of one machine), redis (shared by every replica) and
 * memory (one process, counts lost on restart; kept for tests and as a reference).
 */
export interface Store {
  readonly kind: 'memory' | 'redis' | 'sqlite'
  getKeyByHash(hash: string): Promise<KeyRecord | null>
  putKey(record: KeyRecord): Promise<void>
  listKeys(): Promise<KeyRecord[]>
  /** id or key hash; returns the removed record */
  deleteKey(idOrHash: string): Promise<KeyRecord | null>
  /** atomically charges units against both periods, or nothing if either would go over */
  charge(
    id: string,
    kind: QuotaKind,
    units: number,
    limits: Limits,
    now: Date,
    op: string,
    token?: string
  ): Promise<ChargeResult>
  /**
   * Undoes the charge made under `token` if it took place (a charge whose reply was lost may or may
   * not have); a store whose charges cannot be lost has none.
   */
  undo?(token: string, id: string): Promise<boolean>
  /** counts one request in the rate window `key` (started by the first request, `windowMs` long) */
  hit(key: string, windowMs: number): Promise<RateCount>
  /**
   * One atomic step, and on Redis one round trip: counts the request in its rate window and, unless
   * that goes over the window's max, charges it as `charge` does.
   */
  meter(
    rate: RateWindow | null,
    id: string,
    kind: QuotaKind,
    units: number,
    limits: Limits,
    now: Date,
    op: string,
    token?: string
  ): Promise<MeterResult>
  refund(id: string, kind: QuotaKind, units: number, now: Date, op: string): Promise<void>
  usage(id: string, kind: QuotaKind, limits: Limits, now: Date): Promise<{ daily: Counter; monthly: Counter }>
  /** per operation and UTC day, the last `days` days */
  history(id: string, now: Date, days: number): Promise<DayUsage[]>
  ping(): Promise<void>
  close(): Promise<void>
}

export interface Periods {
  day: string
  month: string
  dayReset: Date
  monthReset: Date
  dayResetIso: string
  monthResetIso: string
}

// Every request asks for the periods of the current time: the last day's answer is kept (it holds
// for the whole UTC day) instead of building four dates and strings each time.
let lastPeriods: Periods | null = null
let lastDayStart = 0

export function periods (now: Date): Periods {
  const t = now.getTime()
  if (lastPeriods !== null && t >= lastDayStart && t < lastPeriods.dayReset.getTime()) return lastPeriods
  const iso = now.toISOString()
  const dayReset = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))
  const monthReset = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))
  lastDayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  lastPeriods = Object.freeze({
    day: iso.slice(0, 10),
    month: iso.slice(0, 7),
    dayReset,
    monthReset,
    dayResetIso: dayReset.toISOString(),
    monthResetIso: monthReset.toISOString()
  }) as Periods
  return lastPeriods
}

/** `reset`: the ISO time at which the counter starts again */
export function counter (used: number, limit: number | null, reset: string): Counter {
  return { used, limit, remaining: limit === null ? null : Math.max(0, limit - used), reset }
}

export function planLimits (plan: Plan, kind: QuotaKind): Limits {
  return kind === 'text'
    ? { daily: plan.textDaily, monthly: plan.textMonthly }
    : { daily: plan.imageDaily, monthly: plan.imageMonthly }
}
