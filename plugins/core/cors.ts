// CORS for web pages on other origins (single-page apps, browser extensions) that call the API.
// Off unless CORS_ORIGINS is set: then a listed origin (or any, with *) may call every path but the
// operator API (/admin, same origin only), and read every answer, errors and 503s included, with
// the headers a client acts on. Registered before everything that can answer (load shedding, the
// error handler, metering), so that its onRequest hook has set the headers by then.
import fp from 'fastify-plugin'
import cors from '@fastify/cors'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Errors } from '../../lib/errors.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** set by @fastify/cors when it answered the request as a preflight */
    corsPreflightEnabled: boolean
  }
  interface FastifyContextConfig {
    /** false: the route answers no CORS headers (@fastify/cors reads it) */
    cors?: false | Record<string, unknown>
  }
}

/** Answer headers a browser client may read besides the CORS-safelisted ones. */
export const EXPOSED = [
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Quota-Daily-Remaining',
  'X-Quota-Monthly-Remaining',
  'X-Request-Id'
]
/** Request headers a page may send besides the safelisted ones: Content-Type for a JSON body. */
export const ALLOWED_HEADERS = ['Content-Type', 'Accept']
export const METHODS = ['GET', 'HEAD', 'POST']
/** How long a browser may cache a preflight answer (Chromium caps it at 2 hours). */
export const MAX_AGE = 600

export default fp(
  async fastify => {
    const allowed = fastify.config.corsOrigins
    if (allowed.length === 0) return
    const any = allowed.includes('*')
    const listed = new Set(allowed)

    // The operator API stays same-origin: its routes opt out (no CORS work, no headers), and its
    // preflights reach a route of their own, more specific than the plugin's catch-all OPTIONS.
    fastify.addHook('onRoute', route => {
      if (route.url === '/admin' || route.url.startsWith('/admin/')) route.config = { ...route.config, cors: false }
      // the catch-all is reached only by what the plugin did not answer as a preflight: a refused
      // origin gets a 403 that says why, anything else the usual 404
      if (route.method === 'OPTIONS' && route.url === '*') route.preHandler = refuse('to this API')
    })
    for (const url of ['/admin', '/admin/*']) {
      fastify.options(
        url,
        { schema: { hide: true }, preHandler: refuse('to the operator API (same origin only)') },
        (req, reply) => {
          reply.callNotFound()
        }
      )
    }

    // Options, not a per-request delegator (which would have chosen the operator API's options by
    // path): 5-10 us less CPU per request in a bare-route microbenchmark.
    await fastify.register(cors, {
      // a request without Origin (curl, a server, a same-origin GET) gets no CORS headers at all
      origin: (origin: string | undefined, cb: (err: Error | null, allow: string | boolean) => void) => {
        cb(null, origin === undefined ? false : any ? '*' : listed.has(origin))
      },
      methods: METHODS,
      allowedHeaders: ALLOWED_HEADERS,
      exposedHeaders: EXPOSED,
      maxAge: MAX_AGE,
      // a malformed preflight falls through to the JSON answers, not a text/plain 400
      strictPreflight: false
    })
  },
  { name: 'cors', dependencies: ['config', 'errors'] }
)

function refuse (where: string) {
  return (req: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    const origin = req.headers.origin
    if (req.corsPreflightEnabled || origin === undefined) {
      done()
      return
    }
    done(new Errors.CorsRefused(JSON.stringify(origin), where))
  }
}
