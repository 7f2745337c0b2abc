import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { sendError } from '../core/errors.js'

const health: FastifyPluginAsyncTypebox = async fastify => {
  fastify.get(
    '/health/live',
    { schema: { tags: ['system'], response: { 200: Type.Object({ status: Type.String() }) } } },
    async () => ({ status: 'ok' })
  )

  // Ready once every model is loaded and warmed (the app does not listen before that) and the
  // quota store answers.
  fastify.get('/health/ready', { schema: { tags: ['system'] } }, async (_req, reply) => {
    try {
      await fastify.store.ping()
    } catch {
      return sendError(reply, 503, 'The quota store does not answer.', { 'retry-after': 1 })
    }
    return {
      status: 'ready',
      store: fastify.store.kind,
      backend: fastify.models.backend,
      models: fastify.models.list().map(m => `${m.manifest.name}@${m.manifest.version}`)
    }
  })
}

export default health
