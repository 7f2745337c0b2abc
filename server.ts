// Builds the service with the shared options, listens on HOST:PORT and closes gracefully.
import Fastify from 'fastify'
import app from './app.js'
import { serverOptions } from './options.js'
import { loadConfig } from './lib/config.js'

export async function build (config = loadConfig()) {
  const fastify = Fastify(serverOptions(config))
  await fastify.register(app, { config })
  return fastify
}

async function main () {
  let config
  try {
    config = loadConfig()
  } catch (err) {
    process.stderr.write(`configuration error: ${(err as Error).message}\n`)
    process.exit(2)
  }
  const fastify = await build(config)
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      fastify.log.info({ signal }, 'closing')
      fastify.close().then(() => process.exit(0), () => process.exit(1))
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
  main().catch((err) => {
    process.stderr.write(`start-up failed: ${(err as Error).stack ?? String(err)}\n`)
    process.exit(1)
  })
}
