import fp from 'fastify-plugin'
import { RedisStore } from '../../lib/store/redis.js'
import { SqliteStore } from '../../lib/store/sqlite.js'
import type { Store } from '../../lib/store/types.js'

declare module 'fastify' {
  interface FastifyInstance {
    store: Store
  }
}

export function openStore (config: { redisUrl: string | null; dataDir: string; redisTimeoutMs: number }): Store {
  return config.redisUrl !== null
    ? new RedisStore(config.redisUrl, { timeoutMs: config.redisTimeoutMs })
    : new SqliteStore(config.dataDir)
}

export default fp(
  async fastify => {
    const store = openStore(fastify.config)
    if (store instanceof RedisStore) {
      // Start even if Redis is down: /health/ready says so, metered requests answer 503, and the
      // client keeps reconnecting in the background.
      if (!(await store.connect(3000))) fastify.log.warn('Redis did not answer at start-up; retrying in the background')
    }
    fastify.decorate('store', store)
    fastify.addHook('onClose', async () => {
      await store.close()
    })
  },
  { name: 'store', dependencies: ['config'] }
)
