// Every request's id (X-Request-Id on every answer, the early ones of later plugins included) and
// its deadline (REQUEST_TIMEOUT_MS from arrival, lib/runtime/deadline.ts): the route factories run their
// work in it, answer 503 with Retry-After when it passes (the quota plugin refunds any 5xx), and
// the work still waiting in the pools for that request is dropped, as it is when the client leaves.
import fp from 'fastify-plugin'
import { Deadline } from '../../lib/runtime/deadline.js'

declare module 'fastify' {
  interface FastifyRequest {
    deadline: Deadline | null
  }
}

export default fp(
  async fastify => {
    const ms = fastify.config.requestTimeoutMs
    fastify.decorateRequest('deadline', null)
    fastify.addHook('onRequest', (req, reply, done) => {
      reply.header('x-request-id', req.id)
      req.deadline = new Deadline(ms)
      done()
    })
    fastify.addHook('onResponse', (req, _reply, done) => {
      req.deadline?.clear()
      done()
    })
    fastify.addHook('onRequestAbort', (req, done) => {
      req.deadline?.abandon()
      done()
    })
  },
  { name: 'lifetime', dependencies: ['config'] }
)
