// Quota charging (403): a validated request with a valid key is counted in its rate window and
// charged against its daily and monthly quota in one store call (one Lua script, one round trip
// on Redis); a request that was charged and then failed (a 5xx, or a late 4xx) is refunded.
// FAIL_OPEN: requests served while the store is down are charged once it answers again.
import fp from 'fastify-plugin'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Errors } from '../../lib/errors.js'
import { maxOf, retryIn, storeUnavailable, windowOf, type QuotaStore } from '../../lib/metering.js'
import {
  planLimits,
  type ChargeResult,
  type KeyRecord,
  type MeterResult,
  type QuotaKind,
  type RateWindow
} from '../../lib/store/types.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the route is charged against this quota */
    quota?: QuotaKind
    /** operation name, for usage history */
    op?: string
    /** quota units of a validated request (default 1) */
    units?: (body: Record<string, unknown>) => number
  }
  interface FastifyRequest {
    charged: Charge | null
  }
}

interface Charge {
  kind: QuotaKind
  units: number
  at: Date
  op: string
}

function quotaHeaders (reply: FastifyReply, res: Pick<ChargeResult, 'daily' | 'monthly'>): void {
  if (res.daily.remaining !== null) reply.header('x-quota-daily-remaining', res.daily.remaining)
  if (res.monthly.remaining !== null) reply.header('x-quota-monthly-remaining', res.monthly.remaining)
}

/** The headers @fastify/rate-limit sends, for a request counted by its charge; the 429 over the rate. */
function rateHeaders (reply: FastifyReply, rate: RateWindow, res: MeterResult): void {
  if (res.rate === null) return
  const reset = Math.ceil(res.rate.ttl / 1000)
  reply.header('x-ratelimit-limit', rate.max)
  reply.header('x-ratelimit-remaining', res.limited ? 0 : Math.max(0, rate.max - res.rate.current))
  reply.header('x-ratelimit-reset', reset)
  if (res.limited) {
    reply.header('retry-after', reset)
    throw new Errors.RateLimited(rate.max, retryIn(res.rate.ttl))
  }
}

function rateWindow (key: KeyRecord): RateWindow | null {
  const r = key.plan.rate
  return r === null ? null : { key: `k:${key.id}`, windowMs: windowOf(r), max: maxOf(r) }
}

/** Store calls that failed, done again in the background once the store answers. */
function retrier (store: QuotaStore) {
  const timers = new Set<NodeJS.Timeout>()
  const later = (fn: () => void, ms: number) => {
    const t = setTimeout(() => {
      timers.delete(t)
      fn()
    }, ms)
    timers.add(t)
  }
  // the charge may have happened with its reply lost: undo it, if so, once the store answers
  const undo = (token: string, id: string, attempt = 0): void => {
    if (store.undo === undefined || attempt >= 30) return
    later(
      () => {
        store.undo!(token, id).catch(() => undo(token, id, attempt + 1))
      },
      attempt === 0 ? 100 : 1000
    )
  }
  // FAIL_OPEN: served while the store was down, counted once it answers (no quota check: they
  // were already served); kept in memory, at most 100,000
  const uncounted: Array<Charge & { id: string }> = []
  let replaying = false
  const replay = async (): Promise<void> => {
    while (uncounted.length > 0) {
      const c = uncounted[0]!
      try {
        await store.charge(c.id, c.kind, c.units, { daily: null, monthly: null }, c.at, c.op)
      } catch {
        later(() => {
          void replay()
        }, 1000)
        return
      }
      uncounted.shift()
    }
    replaying = false
  }
  const countLater = (id: string, c: Charge): void => {
    if (uncounted.length < 100_000) uncounted.push({ id, ...c })
    if (!replaying) {
      replaying = true
      later(() => {
        void replay()
      }, 1000)
    }
  }
  return {
    undo,
    countLater,
    close: () => {
      for (const t of timers) clearTimeout(t)
    }
  }
}

export default fp(
  async fastify => {
    const { config } = fastify
    const store: QuotaStore = fastify.store
    const retry = retrier(store)
    fastify.addHook('onClose', async () => retry.close())

    fastify.decorateRequest('charged', null)
    fastify.addHook('preHandler', async (req, reply) => {
      const rc = req.routeOptions.config
      if (rc.quota === undefined || req.apiKey == null) return
      req.meterPending = false
      const c: Charge = {
        kind: rc.quota,
        units: rc.units?.(req.body as Record<string, unknown>) ?? 1,
        at: fastify.clock(),
        op: rc.op ?? req.routeOptions.url ?? 'unknown'
      }
      const rate = rateWindow(req.apiKey)
      let res: MeterResult
      try {
        res = await store.meter(
          rate,
          req.apiKey.id,
          c.kind,
          c.units,
          planLimits(req.apiKey.plan, c.kind),
          c.at,
          c.op,
          req.id
        )
      } catch (err) {
        retry.undo(req.id, req.apiKey.id)
        if (config.failOpen) {
          retry.countLater(req.apiKey.id, c)
          return
        }
        fastify.log.warn({ err: (err as Error).message }, 'quota store unavailable')
        throw storeUnavailable()
      }
      if (rate !== null) rateHeaders(reply, rate, res)
      const charge = res.charge as ChargeResult
      quotaHeaders(reply, charge)
      if (!charge.ok) {
        const which = charge.refusedBy === 'monthly' ? 'monthly' : 'daily'
        const period = charge[which]
        throw new Errors.QuotaExceeded(
          `Quota exceeded: this request costs ${c.units} ${c.kind} unit(s) and the ${which} ${c.kind} quota ` +
            `of this key is ${String(period.limit)} (${String(period.remaining)} left, resets at ${period.reset}). ` +
            `Upgrade your plan on the dashboard: ${config.dashboardUrl}`
        )
      }
      req.charged = c
    })

    // A request that was charged but did not succeed (a 5xx, or a late 4xx) costs nothing.
    async function refund (req: FastifyRequest, c: Charge, id: string): Promise<void> {
      req.charged = null
      try {
        if (store.undo !== undefined) await store.undo(req.id, id)
        else await store.refund(id, c.kind, c.units, c.at, c.op)
      } catch (err) {
        req.log.error({ err: (err as Error).message }, 'refund failed; retrying in the background')
        retry.undo(req.id, id, 1)
      }
    }
    // A callback hook: most answers need no refund, and then it costs no promise and no tick. A
    // request answered by a plugin registered before this one has none of its decorations: undefined.
    fastify.addHook('onSend', (req, reply, payload, done) => {
      const c = req.charged
      if (c == null || reply.statusCode < 400 || req.apiKey == null) {
        done(null, payload)
        return
      }
      refund(req, c, req.apiKey.id).then(() => done(null, payload), done)
    })
  },
  { name: 'quota', dependencies: ['config', 'store', 'errors', 'auth', 'rate-limit'] }
)
