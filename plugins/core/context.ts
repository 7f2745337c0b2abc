import fp from 'fastify-plugin'
import type { Config } from '../../schemas/env.js'

export interface AppOptions {
  config: Config
  /** the time used for quota periods; tests move it across day and month ends */
  clock?: () => Date
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config
    clock: () => Date
  }
}

export default fp<AppOptions>(
  async (fastify, opts) => {
    fastify.decorate('config', opts.config)
    fastify.decorate('clock', opts.clock ?? (() => new Date()))
  },
  { name: 'config' }
)
