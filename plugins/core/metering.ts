// Who is calling, how fast, and how much: api_key authentication (401/406), the per-key rate limit
// (keyed after the body is parsed because the key may be in the body), and quota charging (403)
// once the request has passed validation, refunded if the answer fails. A metered request with a
// valid key is counted in its rate window by the same store call that charges it (one round trip
// on Redis); @fastify/rate-limit, over the same counters, limits everything else: requests without
// a valid key (per client address), /usage, and metered requests refused before their charge.
import fp from 'fastify-plugin'
import rateLimit from '@fastify/rate-limit'
import { STATUS_CODES } from 'node:http'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Errors, withHeaders } from '../../lib/errors.js'
import { hashKey, newKey, sameHash } from '../../lib/keys.js'
import { planLimits, type ChargeResult, type KeyRecord, type MeterResult, type QuotaKind, type RateCount, type RateWindow } from '../../lib/store/types.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the route needs a valid api_key */
    auth?: boolean
    /** the route is charged against this quota */
    quota?: QuotaKind
    /** operation name, for usage history */
    op?: string
    /** quota units of a validated request (default 1) */
    units?: (body: Record<string, unknown>) => number
  }
  interface FastifyRequest {
    apiKey: KeyRecord | null
    charged: { kind: QuotaKind, units: number, at: Date, op: string } | null
    /** a metered request whose rate count is left to the store call that charges it */
    meterPending: boolean
  }
  interface FastifyInstance {
    /** resolves a key (cached for at most a second, so a revocation is seen within a second) */
    lookupKey (key: string): Promise<KeyRecord | null>
  }
}

const CACHE_MS = 1000

export default fp(async (fastify) => {
  const { config, store } = fastify

  // Keys from API_KEYS (and a development key when nothing is configured) live in memory only.
  const envKeys = new Map<string, KeyRecord>()
  const addEnvKey = (key: string, source: 'env' | 'dev') => {
    const hash = hashKey(key)
    envKeys.set(hash, { id: `${source}_${hash.slice(0, 10)}`, name: source === 'env' ? 'API_KEYS' : 'development', hash, plan: config.defaultPlan, created: new Date().toISOString(), source })
  }
  for (const k of config.apiKeys) addEnvKey(k, 'env')
  if (config.apiKeys.length === 0) {
    let stored = 0
    try { stored = (await store.listKeys()).length } catch { /* store down: still give a dev key */ }
    if (stored === 0) {
      const dev = newKey()
      addEnvKey(dev, 'dev')
      // printed once, on purpose, outside the request log
      process.stderr.write(`\nNo API_KEYS configured and no keys in the store: development key for this run:\n${dev}\n\n`)
    }
  }

  const cache = new Map<string, { rec: KeyRecord | null, at: number }>()
  // the sha256 of the keys seen lately: a key is hashed once, not on each of its requests. Only
  // key-sized strings are kept (issued keys are 32 characters): a caller sending megabyte-long
  // keys must not fill the memory with them.
  const hashes = new Map<string, string>()
  const hashOf = (key: string): string => {
    let hash = hashes.get(key)
    if (hash === undefined) {
      hash = hashKey(key)
      if (key.length > 128) return hash
      if (hashes.size >= 10_000) hashes.clear()
      hashes.set(key, hash)
    }
    return hash
  }
  fastify.decorate('lookupKey', async (key: string): Promise<KeyRecord | null> => {
    const hash = hashOf(key)
    // found under its own hash: the record's hash is this one
    const fromEnv = envKeys.get(hash)
    if (fromEnv !== undefined) return fromEnv
    const hit = cache.get(hash)
    const now = Date.now()
    if (hit !== undefined && now - hit.at < CACHE_MS) return hit.rec
    let rec: KeyRecord | null
    try {
      rec = await store.getKeyByHash(hash)
    } catch (err) {
      // fail-open may serve a key it has seen, never an unknown one
      if (config.failOpen && hit !== undefined) return hit.rec
      throw storeDown(err)
    }
    if (rec !== null && !sameHash(rec.hash, hash)) rec = null
    if (cache.size > 10_000) cache.clear()
    cache.set(hash, { rec, at: now })
    return rec
  })

  // FAIL_OPEN: requests served while the store was down are counted once it answers again
  // (without a quota check: they were already served). Kept in memory, at most 100,000.
  const uncounted: Array<{ id: string, kind: QuotaKind, units: number, at: Date, op: string }> = []
  let replaying: NodeJS.Timeout | null = null
  function countLater (id: string, kind: QuotaKind, units: number, at: Date, op: string): void {
    if (uncounted.length < 100_000) uncounted.push({ id, kind, units, at, op })
    replaying ??= setTimeout(replay, 1000)
  }
  async function replay (): Promise<void> {
    replaying = null
    while (uncounted.length > 0) {
      const c = uncounted[0]!
      try {
        await store.charge(c.id, c.kind, c.units, { daily: null, monthly: null }, c.at, c.op)
      } catch {
        replaying = setTimeout(replay, 1000)
        return
      }
      uncounted.shift()
    }
  }

  const pendingUndo = new Set<NodeJS.Timeout>()
  function undoLater (token: string, attempt = 0): void {
    if (store.undo === undefined || attempt >= 30) return
    const timer = setTimeout(() => {
      pendingUndo.delete(timer)
      store.undo!(token).catch(() => undoLater(token, attempt + 1))
    }, attempt === 0 ? 100 : 1000)
    pendingUndo.add(timer)
  }
  fastify.addHook('onClose', async () => {
    for (const t of pendingUndo) clearTimeout(t)
    if (replaying !== null) clearTimeout(replaying)
  })

  function storeDown (err: unknown): Error {
    fastify.log.warn({ err: (err as Error).message }, 'quota store unavailable')
    return withHeaders(new Errors.StoreUnavailable(), { 'retry-after': 1 })
  }

  // @fastify/rate-limit's store: the store's own rate windows, which the metered path counts in too
  class Windows {
    incr (key: string, done: (err: Error | null, res?: RateCount) => void, timeWindow?: number): void {
      store.hit(key, timeWindow ?? 1000).then((r) => done(null, r), (err: Error) => done(err))
    }

    child (): Windows { return this }
  }
  await fastify.register(rateLimit, {
    global: false,
    timeWindow: 1000,
    store: Windows,
    skipOnError: false,
    // /usage has a window of its own, so that a key over its rate can still see its usage
    keyGenerator: (req: FastifyRequest) => req.apiKey == null
      ? `ip:${req.ip}`
      : `${req.routeOptions.config.quota === undefined ? 'u' : 'k'}:${req.apiKey.id}`,
    errorResponseBuilder: (_req, ctx) => new Errors.RateLimited(ctx.max, retryIn(ctx.ttl))
  })
  // A rate of r requests per second: r per second when r >= 1, else one per 1/r seconds.
  const windowOf = (r: number) => r >= 1 ? 1000 : Math.round(1000 / r)
  const maxOf = (r: number) => Math.max(1, Math.floor(r))
  const rateOf = (req: FastifyRequest) => req.apiKey?.plan.rate ?? config.anonymousRate
  const limitKeyed = fastify.rateLimit({
    timeWindow: (req: FastifyRequest) => windowOf(rateOf(req)),
    max: (req: FastifyRequest) => maxOf(rateOf(req)),
    // a key whose plan has no rate limit is not counted
    allowList: (req: FastifyRequest) => req.apiKey !== null && req.apiKey.plan.rate === null
  })
  async function limit (req: FastifyRequest, reply: FastifyReply): Promise<void> {
    try {
      await limitKeyed.call(fastify, req, reply)
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode === 429) throw err
      if (!config.failOpen) throw storeDown(err)
    }
  }

  fastify.decorateRequest('apiKey', null)
  fastify.decorateRequest('charged', null)
  fastify.decorateRequest('meterPending', false)

  fastify.addHook('preValidation', async (req, reply) => {
    const rc = req.routeOptions.config
    if (rc.auth !== true) return
    const raw = (req.body as Record<string, unknown> | undefined)?.api_key
    let authError: Error | null = null
    if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) authError = new Errors.MissingApiKey()
    else if (typeof raw !== 'string') authError = new Errors.ApiKeyType()
    else {
      req.apiKey = await fastify.lookupKey(raw.trim())
      if (req.apiKey === null) authError = new Errors.InvalidApiKey()
    }
    // Counting this request now would cost Redis a round trip of its own: it is counted by the
    // store call that charges it (preHandler), or in onSend if it is refused before that.
    if (authError === null && rc.quota !== undefined) {
      req.meterPending = true
      return
    }
    // Rate limiting runs before the 401 so that guessing keys is limited per client address.
    await limit(req, reply)
    if (authError !== null) throw authError
  })

  fastify.addHook('preHandler', async (req, reply) => {
    const rc = req.routeOptions.config
    if (rc.quota === undefined || req.apiKey === null) return
    req.meterPending = false
    const body = req.body as Record<string, unknown>
    const units = rc.units?.(body) ?? 1
    const at = fastify.clock()
    const op = rc.op ?? req.routeOptions.url ?? 'unknown'
    const limits = planLimits(req.apiKey.plan, rc.quota)
    const r = req.apiKey.plan.rate
    const rate: RateWindow | null = r === null ? null : { key: `k:${req.apiKey.id}`, windowMs: windowOf(r), max: maxOf(r) }
    let res: MeterResult
    try {
      res = await store.meter(rate, req.apiKey.id, rc.quota, units, limits, at, op, req.id)
    } catch (err) {
      // the charge may have happened with its reply lost: undo it, if so, once the store answers
      undoLater(req.id)
      if (config.failOpen) { countLater(req.apiKey.id, rc.quota, units, at, op); return }
      throw storeDown(err)
    }
    if (rate !== null && res.rate !== null) {
      // the headers @fastify/rate-limit sends
      const reset = Math.ceil(res.rate.ttl / 1000)
      reply.header('x-ratelimit-limit', rate.max)
      reply.header('x-ratelimit-remaining', res.limited ? 0 : Math.max(0, rate.max - res.rate.current))
      reply.header('x-ratelimit-reset', reset)
      if (res.limited) {
        reply.header('retry-after', reset)
        throw new Errors.RateLimited(rate.max, retryIn(res.rate.ttl))
      }
    }
    const charge = res.charge as ChargeResult
    quotaHeaders(reply, charge)
    if (!charge.ok) {
      const period = charge.refusedBy === 'monthly' ? charge.monthly : charge.daily
      const which = charge.refusedBy === 'monthly' ? 'monthly' : 'daily'
      throw new Errors.QuotaExceeded(`Quota exceeded: this request costs ${units} ${rc.quota} unit(s) and the ${which} ${rc.quota} quota of this key is ${String(period.limit)} (${String(period.remaining)} left, resets at ${period.reset}). Upgrade your plan on the dashboard: ${config.dashboardUrl}`)
    }
    req.charged = { kind: rc.quota, units, at, op }
  })

  // A metered request refused between authentication and its charge (413, 400, 406) still counts
  // in its rate window, and over the rate it is a 429, as if it had been limited first.
  async function countRefused (req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    req.meterPending = false
    try {
      await limit(req, reply)
    } catch (err) {
      return replaceWith(reply, err as Error & { statusCode?: number, headers?: Record<string, string | number> })
    }
    return payload
  }

  // A request that was charged but did not succeed (a 5xx, or a late 4xx) costs nothing.
  async function refund (req: FastifyRequest, c: NonNullable<FastifyRequest['charged']>, id: string): Promise<void> {
    req.charged = null
    try {
      if (store.undo !== undefined) await store.undo(req.id)
      else await store.refund(id, c.kind, c.units, c.at, c.op)
    } catch (err) {
      req.log.error({ err: (err as Error).message }, 'refund failed; retrying in the background')
      undoLater(req.id, 1)
    }
  }

  // A callback hook: most answers need neither, and then it costs no promise and no tick.
  fastify.addHook('onSend', (req, reply, payload, done) => {
    if (req.meterPending) {
      countRefused(req, reply, payload).then((p) => done(null, p), done)
      return
    }
    // a request answered by a plugin registered before this one (the /docs static files) never got
    // this plugin's request decorations: undefined, not null
    const c = req.charged
    if (c != null && reply.statusCode >= 400 && req.apiKey != null) {
      refund(req, c, req.apiKey.id).then(() => done(null, payload), done)
      return
    }
    done(null, payload)
  })
}, { name: 'metering', dependencies: ['config', 'store', 'request', 'errors'] })

function retryIn (ttl: number): number { return Math.max(1, Math.ceil(ttl / 1000)) }

/** The error body the error handler would have sent for `err`, for an answer already on its way. */
function replaceWith (reply: FastifyReply, err: Error & { statusCode?: number, headers?: Record<string, string | number> }): string {
  const status = err.statusCode ?? 500
  // set by the error handler for a 413, whose body it did not drain; this body was read whole
  reply.removeHeader('connection')
  if (err.headers !== undefined) reply.headers(err.headers)
  reply.code(status).type('application/json; charset=utf-8')
  return JSON.stringify({ code: status, error: STATUS_CODES[status] ?? 'Error', message: err.message })
}

export function quotaHeaders (reply: FastifyReply, res: Pick<ChargeResult, 'daily' | 'monthly'>): void {
  if (res.daily.remaining !== null) reply.header('x-quota-daily-remaining', res.daily.remaining)
  if (res.monthly.remaining !== null) reply.header('x-quota-monthly-remaining', res.monthly.remaining)
}
