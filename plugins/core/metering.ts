// Who is calling, how fast, and how much: api_key authentication (401/406), the per-key rate limit
// (@fastify/rate-limit, keyed after the body is parsed because the key may be in the body), and
// quota charging (403) once the request has passed validation, refunded if the answer fails.
import fp from 'fastify-plugin'
import rateLimit from '@fastify/rate-limit'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Errors, withHeaders } from '../../lib/errors.js'
import { hashKey, newKey, sameHash } from '../../lib/keys.js'
import { RedisStore } from '../../lib/store/redis.js'
import { planLimits, type ChargeResult, type KeyRecord, type QuotaKind } from '../../lib/store/types.js'

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
  fastify.decorate('lookupKey', async (key: string): Promise<KeyRecord | null> => {
    const hash = hashKey(key)
    const fromEnv = envKeys.get(hash)
    if (fromEnv !== undefined) return sameHash(fromEnv.hash, hash) ? fromEnv : null
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

  await fastify.register(rateLimit, {
    global: false,
    timeWindow: 1000,
    ...(store instanceof RedisStore ? { redis: store.client, nameSpace: 'otia:rl:' } : {}),
    skipOnError: false,
    keyGenerator: (req: FastifyRequest) => req.apiKey !== null ? `k:${req.apiKey.id}` : `ip:${req.ip}`,
    errorResponseBuilder: (_req, ctx) => {
      const seconds = Math.max(1, Math.ceil(ctx.ttl / 1000))
      return new Errors.RateLimited(ctx.max, seconds)
    }
  })
  // A rate of r requests per second: r per second when r >= 1, else one per 1/r seconds.
  const rateOf = (req: FastifyRequest) => req.apiKey?.plan.rate ?? config.anonymousRate
  const limitKeyed = fastify.rateLimit({
    timeWindow: (req: FastifyRequest) => { const r = rateOf(req); return r >= 1 ? 1000 : Math.round(1000 / r) },
    max: (req: FastifyRequest) => Math.max(1, Math.floor(rateOf(req))),
    // a key whose plan has no rate limit is not counted
    allowList: (req: FastifyRequest) => req.apiKey !== null && req.apiKey.plan.rate === null
  })

  fastify.decorateRequest('apiKey', null)
  fastify.decorateRequest('charged', null)

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
    // Rate limiting runs before the 401 so that guessing keys is limited per client address.
    try {
      await limitKeyed.call(fastify, req, reply)
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode === 429) throw err
      if (!config.failOpen) throw storeDown(err)
    }
    if (authError !== null) throw authError
  })

  fastify.addHook('preHandler', async (req, reply) => {
    const rc = req.routeOptions.config
    if (rc.quota === undefined || req.apiKey === null) return
    const body = req.body as Record<string, unknown>
    const units = rc.units?.(body) ?? 1
    const at = fastify.clock()
    const op = rc.op ?? req.routeOptions.url ?? 'unknown'
    const limits = planLimits(req.apiKey.plan, rc.quota)
    let res: ChargeResult
    try {
      res = await store.charge(req.apiKey.id, rc.quota, units, limits, at, op, req.id)
    } catch (err) {
      // the charge may have happened with its reply lost: undo it, if so, once the store answers
      undoLater(req.id)
      if (config.failOpen) { countLater(req.apiKey.id, rc.quota, units, at, op); return }
      throw storeDown(err)
    }
    quotaHeaders(reply, res)
    if (!res.ok) {
      const period = res.refusedBy === 'monthly' ? res.monthly : res.daily
      const which = res.refusedBy === 'monthly' ? 'monthly' : 'daily'
      throw new Errors.QuotaExceeded(`Quota exceeded: this request costs ${units} ${rc.quota} unit(s) and the ${which} ${rc.quota} quota of this key is ${String(period.limit)} (${String(period.remaining)} left, resets at ${period.reset}). Upgrade your plan on the dashboard: ${config.dashboardUrl}`)
    }
    req.charged = { kind: rc.quota, units, at, op }
  })

  // A request that was charged but did not succeed (a 5xx, or a late 4xx) costs nothing.
  fastify.addHook('onSend', async (req, reply, payload) => {
    const c = req.charged
    if (c !== null && reply.statusCode >= 400 && req.apiKey !== null) {
      req.charged = null
      try {
        if (store.undo !== undefined) await store.undo(req.id)
        else await store.refund(req.apiKey.id, c.kind, c.units, c.at, c.op)
      } catch (err) {
        req.log.error({ err: (err as Error).message }, 'refund failed; retrying in the background')
        undoLater(req.id, 1)
      }
    }
    return payload
  })
}, { name: 'metering', dependencies: ['config', 'store', 'request', 'errors'] })

export function quotaHeaders (reply: FastifyReply, res: Pick<ChargeResult, 'daily' | 'monthly'>): void {
  if (res.daily.remaining !== null) reply.header('x-quota-daily-remaining', res.daily.remaining)
  if (res.monthly.remaining !== null) reply.header('x-quota-monthly-remaining', res.monthly.remaining)
}
