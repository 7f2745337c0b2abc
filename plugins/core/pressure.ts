// Load shedding: when the event loop lags (or the heap grows past a limit), new requests get a
// JSON 503 with Retry-After instead of queueing up. The cheap routes that tell a client or an
// operator what is going on (health, metrics, usage, the model list, the API description) still answer.
import fp from 'fastify-plugin'
import underPressure from '@fastify/under-pressure'
import { STATUS_CODES } from 'node:http'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Errors } from '../../lib/errors.js'

const NEVER_SHED = /^\/(health\/|metrics(?:[/?]|$)|(v4\/)?usage(?:[/?]|$)|v4\/models(?:[/?]|$)|openapi\.json(?:[/?]|$))/

export default fp(
  async fastify => {
    const { config } = fastify
    if (config.maxEventLoopDelayMs === 0 && config.maxHeapBytes === 0) return
    // loading the models blocks the loop for a while before the service is ready; the samples just
    // after ready still carry that stall, so shedding starts once they have been replaced
    let since = Infinity
    fastify.addHook('onReady', async () => {
      since = Date.now() + 500
    })
    await fastify.register(underPressure, {
      maxEventLoopDelay: config.maxEventLoopDelayMs,
      maxHeapUsedBytes: config.maxHeapBytes,
      sampleInterval: 100,
      // a returned value is sent as the answer; undefined lets the request through
      pressureHandler: ((req: FastifyRequest, reply: FastifyReply) => {
        if (Date.now() < since || NEVER_SHED.test(req.url)) return undefined
        // this hook runs before the one that sets the request id on every answer
        reply.code(503).header('retry-after', 1).header('x-request-id', req.id).type('application/json; charset=utf-8')
        return { code: 503, error: STATUS_CODES[503], message: new Errors.Overloaded().message }
      }) as unknown as () => void
    })
  },
  { name: 'pressure', dependencies: ['config', 'errors'] }
)
