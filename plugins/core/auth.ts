// api_key authentication (401, or 406 for a key that is not a string). Keys come from API_KEYS
// (and a development key when nothing is configured), held in memory, or from the store, looked
// up by their sha256 and cached for at most a second, so a revocation is seen within a second.
// A request is authenticated after its body is parsed, since the key may be in the body; its rate
// is counted before a 401, so that guessing keys is limited per client address.
import fp from 'fastify-plugin'
import type { FastifyRequest } from 'fastify'
import { Errors } from '../../lib/errors.js'
import cluster from 'node:cluster'
import { hashKey, sameHash } from '../../lib/keys.js'
import { developmentKey, keysNotice } from '../../lib/dev-key.js'
import { storeUnavailable, type KeyStore } from '../../lib/metering.js'
import type { KeyRecord } from '../../lib/store/types.js'
import type { Config } from '../../schemas/env.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** the route needs a valid api_key */
    auth?: boolean
  }
  interface FastifyRequest {
    apiKey: KeyRecord | null
  }
  interface FastifyInstance {
    /** resolves a key (cached for at most a second, so a revocation is seen within a second) */
    lookupKey(key: string): Promise<KeyRecord | null>
  }
}

const CACHE_MS = 1000

async function configuredKeys (config: Config, store: KeyStore): Promise<Map<string, KeyRecord>> {
  const keys = new Map<string, KeyRecord>()
  const add = (key: string, source: 'env' | 'dev') => {
    const hash = hashKey(key)
    keys.set(hash, {
      id: `${source}_${hash.slice(0, 10)}`,
      name: source === 'env' ? 'API_KEYS' : 'development',
      hash,
      plan: config.defaultPlan,
      created: new Date().toISOString(),
      source
    })
  }
  for (const k of config.apiKeys) add(k, 'env')
  if (config.apiKeys.length > 0) return keys
  let stored = 0
  try {
    stored = (await store.listKeys()).length
  } catch {
    /* store down: still give the dev key */
  }
  const dev = stored === 0 ? await developmentKey(config.dataDir) : null
  if (dev !== null) add(dev, 'dev')
  // the processes of a cluster leave it to their supervisor (server.ts) to say, once
  if (cluster.isPrimary) process.stderr.write(keysNotice(config.dataDir, dev, stored))
  return keys
}

/**
 * The sha256 of the keys seen lately: a key is hashed once, not on each of its requests. Only
 * key-sized strings are kept (issued keys are 32 characters): a caller sending megabyte-long keys
 * must not fill the memory with them.
 */
function hasher (): (key: string) => string {
  const hashes = new Map<string, string>()
  return key => {
    let hash = hashes.get(key)
    if (hash === undefined) {
      hash = hashKey(key)
      if (key.length > 128) return hash
      if (hashes.size >= 10_000) hashes.clear()
      hashes.set(key, hash)
    }
    return hash
  }
}

export default fp(
  async fastify => {
    const { config } = fastify
    const store: KeyStore = fastify.store
    const envKeys = await configuredKeys(config, store)
    const cache = new Map<string, { rec: KeyRecord | null; at: number }>()
    const hashOf = hasher()

    fastify.decorate('lookupKey', async (key: string): Promise<KeyRecord | null> => {
      const hash = hashOf(key)
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
        fastify.log.warn({ err: (err as Error).message }, 'quota store unavailable')
        throw storeUnavailable()
      }
      if (rec !== null && !sameHash(rec.hash, hash)) rec = null
      if (cache.size > 10_000) cache.clear()
      cache.set(hash, { rec, at: now })
      return rec
    })

    // a list as api_key is a JSON value of the wrong type (406) or, in the other encodings, a field sent twice
    const isJson = (req: FastifyRequest) => /\bjson\b/i.test(req.headers['content-type'] ?? '')
    fastify.decorateRequest('apiKey', null)
    fastify.addHook('preValidation', async (req, reply) => {
      const rc = req.routeOptions.config
      if (rc.auth !== true) return
      const raw = (req.body as Record<string, unknown> | undefined)?.api_key
      let refused: Error | null = null
      if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
        refused = new Errors.MissingApiKey()
      } else if (Array.isArray(raw) && !isJson(req)) refused = new Errors.RepeatedField('api_key', raw.length)
      else if (typeof raw !== 'string') refused = new Errors.ApiKeyType()
      else {
        req.apiKey = await fastify.lookupKey(raw.trim())
        if (req.apiKey === null) refused = new Errors.InvalidApiKey()
      }
      // a metered request with a valid key is counted in its rate window by the store call that
      // charges it (quota.ts); every other one is counted now, before a 401
      if (refused === null && rc.quota !== undefined) fastify.deferRateCount(req)
      else await fastify.limitRate(req, reply)
      if (refused !== null) throw refused
    })
  },
  { name: 'auth', dependencies: ['config', 'store', 'errors', 'rate-limit'] }
)
