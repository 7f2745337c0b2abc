// CORS for web pages on other origins (single-page apps, browser extensions) that call the API.
// Off unless CORS_ORIGINS is set: then a listed origin (or any, with *) may call every path but the
// operator API (/admin, same origin only), and read every answer, errors and 503s included, with
// the headers a client acts on. Registered before everything that can answer (load shedding, the
// error handler, metering), so that its onRequest hook has set the headers by then.
import fp from 'fastify-plugin'
import cors from '@fastify/cors'
import type { FastifyRequest } from 'fastify'
import { Errors } from '../../lib/errors.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** set by @fastify/cors when it answered the request as a preflight */
    corsPreflightEnabled: boolean
  }
}

/** Answer headers a browser client may read besides the CORS-safelisted ones. */
export const EXPOSED = ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset',
  'X-Quota-Daily-Remaining', 'X-Quota-Monthly-Remaining', 'X-Request-Id']
/** Request headers a page may send besides the safelisted ones: Content-Type for a JSON body. */
export const ALLOWED_HEADERS = ['Content-Type', 'Accept']
export const METHODS = ['GET', 'HEAD', 'POST']
/** How long a browser may cache a preflight answer (Chromium caps it at 2 hours). */
export const MAX_AGE = 600

const operatorPath = (url: string) => url === '/admin' || url.startsWith('/admin/') || url.startsWith('/admin?')

export default fp(async (fastify) => {
  const allowed = fastify.config.corsOrigins
  if (allowed.length === 0) return
  const any = allowed.includes('*')
  const listed = new Set(allowed)
  const off = { origin: false }
  const on = {
    // a request without Origin (curl, a server, a same-origin GET) gets no CORS headers at all
    origin: (origin: string | undefined, cb: (err: Error | null, allow: string | boolean) => void) => {
      cb(null, origin === undefined ? false : any ? '*' : listed.has(origin))
    },
    methods: METHODS,
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED,
    maxAge: MAX_AGE,
    // a malformed preflight falls through to the JSON answers below, not a text/plain 400
    strictPreflight: false
  }

  // The plugin's catch-all OPTIONS route is reached only by what it did not answer as a preflight:
  // a refused origin gets a 403 that says why, anything else the usual 404.
  fastify.addHook('onRoute', (route) => {
    if (route.method !== 'OPTIONS' || route.url !== '*') return
    route.preHandler = (req: FastifyRequest, _reply, done) => {
      const origin = req.headers.origin
      if (req.corsPreflightEnabled || origin === undefined) { done(); return }
      const where = operatorPath(req.url) ? 'to the operator API (same origin only)' : 'to this API'
      done(new Errors.CorsRefused(JSON.stringify(origin), where))
    }
  })
  await fastify.register(cors, {
    delegator: (req, cb) => { cb(null, operatorPath(req.url) ? off : on) }
  })
}, { name: 'cors', dependencies: ['config', 'errors'] })
