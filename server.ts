// Builds the service with the shared options, listens on HOST:PORT and closes gracefully. With
// WEB_CONCURRENCY above 1 this process supervises that many HTTP processes sharing the port.
import Fastify from 'fastify'
import app from './app.js'
import { serverOptions } from './options.js'
import { environment, loadConfig } from './lib/config.js'
import { concurrency, isPrimary, supervise, type Concurrency } from './lib/runtime/cluster.js'
import { developmentKey, keysNotice } from './lib/dev-key.js'
import { RedisStore } from './lib/store/redis.js'
import { openStore } from './plugins/core/store.js'

export async function build (config = loadConfig()) {
  const fastify = Fastify(serverOptions(config))
  await fastify.register(app, { config })
  return fastify
}

// The development key is made (lib/dev-key.ts) and announced once, before the processes that read it start.
async function announceKeys (config: ReturnType<typeof loadConfig>): Promise<void> {
  if (config.apiKeys.length > 0) return
  const store = openStore(config)
  let stored = 0
  try {
    if (store instanceof RedisStore) await store.connect(3000)
    stored = (await store.listKeys()).length
  } catch {
    /* store down: still give the dev key */
  }
  await store.close()
  const dev = stored === 0 ? await developmentKey(config.dataDir) : null
  process.stderr.write(keysNotice(config.dataDir, dev, stored))
}

async function primary (config: ReturnType<typeof loadConfig>, c: Concurrency): Promise<void> {
  await announceKeys(config)
  const env: Record<string, string> = {}
  const given = environment().TEXT_WORKERS
  if ((given ?? '') === '') env.TEXT_WORKERS = String(c.textWorkers)
  process.stderr.write(
    `starting ${c.processes} HTTP processes (WEB_CONCURRENCY), ${env.TEXT_WORKERS ?? given} text workers each\n`
  )
  await supervise({ processes: c.processes, env, log: msg => process.stderr.write(`${msg}\n`) })
  process.exit(0)
}

/** Runs the service: this process, or WEB_CONCURRENCY processes under this one. */
export async function start () {
  let config, c
  try {
    config = loadConfig()
    c = concurrency(environment())
  } catch (err) {
    process.stderr.write(`configuration error: ${(err as Error).message}\n`)
    process.exit(2)
  }
  if (c.processes > 1 && isPrimary()) return primary(config, c)
  const fastify = await build(config)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      fastify.log.info({ signal }, 'closing')
      fastify.close().then(
        () => process.exit(0),
        () => process.exit(1)
      )
    })
  }
  try {
    await fastify.listen({ host: config.host, port: config.port })
  } catch (err) {
    fastify.log.error(err)
    process.exit(1)
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  start().catch(err => {
    process.stderr.write(`start-up failed: ${(err as Error).stack ?? String(err)}\n`)
    process.exit(1)
  })
}
