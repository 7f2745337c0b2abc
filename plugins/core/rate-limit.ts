// The per-key rate limit (429 with Retry-After), or per client address for requests without a
// valid key, in fixed windows kept in the store. @fastify/rate-limit counts the requests that are
// not charged: those without a valid key, /usage (in a window of its own, so that a key over its
// rate can still read its usage), and metered requests refused before their charge (413, 400,
// 406), which still count, and over the rate become a 429 as if they had been limited first.
// A charged request is counted by the quota's store call instead (one Redis round trip).
import fp from 'fastify-plugin'
import rateLimit from '@fastify/rate-limit'
import { STATUS_CODES } from 'node:http'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Errors } from '../../lib/errors.js'
import { maxOf, retryIn, storeUnavailable, windowOf, type RateStore } from '../../lib/metering.js'
import type { RateCount } from '../../lib/store/types.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** a metered request whose rate count is left to the store call that charges it */
    meterPending: boolean
  }
  interface FastifyInstance {
    /** counts the request in its rate window now; throws the 429 over the rate */
    limitRate(req: FastifyRequest, reply: FastifyReply): Promise<void>
    /** leaves the request's rate count to its charge, or to onSend if it is refused before that */
    deferRateCount(req: FastifyRequest): void
  }
}

type HeadedError = Error & { statusCode?: number; headers?: Record<string, string | number> }

/** The error body the error handler would have sent for `err`, for an answer already on its way. */
function replaceWith (reply: FastifyReply, err: HeadedError): string {
  const status = err.statusCode ?? 500
  // set by the error handler for a 413, whose body it did not drain; this body was read whole
  reply.removeHeader('connection')
  if (err.headers !== undefined) reply.headers(err.headers)
  reply.code(status).type('application/json; charset=utf-8')
  return JSON.stringify({ code: status, error: STATUS_CODES[status] ?? 'Error', message: err.message })
}

export default fp(
  async fastify => {
    const { config } = fastify
    const store: RateStore = fastify.store

    // @fastify/rate-limit's store: the store's own rate windows, which the quota counts in too
    class Windows {
      incr (key: string, done: (err: Error | null, res?: RateCount) => void, timeWindow?: number): void {
        store.hit(key, timeWindow ?? 1000).then(
          r => done(null, r),
          (err: Error) => done(err)
        )
      }

      child (): Windows {
        return this
      }
    }
    await fastify.register(rateLimit, {
      global: false,
      timeWindow: 1000,
      store: Windows,
      skipOnError: false,
      keyGenerator: (req: FastifyRequest) =>
        req.apiKey == null
          ? `ip:${req.ip}`
          : `${req.routeOptions.config.quota === undefined ? 'u' : 'k'}:${req.apiKey.id}`,
      errorResponseBuilder: (_req, ctx) => new Errors.RateLimited(ctx.max, retryIn(ctx.ttl))
    })
    const rateOf = (req: FastifyRequest) => req.apiKey?.plan.rate ?? config.anonymousRate
    const limitKeyed = fastify.rateLimit({
      timeWindow: (req: FastifyRequest) => windowOf(rateOf(req)),
      max: (req: FastifyRequest) => maxOf(rateOf(req)),
      // a key whose plan has no rate limit is not counted
      allowList: (req: FastifyRequest) => req.apiKey != null && req.apiKey.plan.rate === null
    })

    fastify.decorate('limitRate', async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
      try {
        await limitKeyed.call(fastify, req, reply)
      } catch (err) {
        if ((err as HeadedError).statusCode === 429) throw err
        if (!config.failOpen) {
          fastify.log.warn({ err: (err as Error).message }, 'quota store unavailable')
          throw storeUnavailable()
        }
      }
    })
    fastify.decorateRequest('meterPending', false)
    fastify.decorate('deferRateCount', (req: FastifyRequest) => {
      req.meterPending = true
    })

    async function countRefused (req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
      req.meterPending = false
      try {
        await fastify.limitRate(req, reply)
      } catch (err) {
        return replaceWith(reply, err as HeadedError)
      }
      return payload
    }
    // A callback hook: most answers need nothing here, and then it costs no promise and no tick.
    fastify.addHook('onSend', (req, reply, payload, done) => {
      if (req.meterPending !== true) {
        done(null, payload)
        return
      }
      countRefused(req, reply, payload).then(p => done(null, p), done)
    })
  },
  { name: 'rate-limit', dependencies: ['config', 'store', 'errors'] }
)
