// Fastify options shared by server.ts and the tests, so tests run the production configuration.
import { randomUUID } from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { Server } from 'node:http'
import type { FastifyHttpOptions, FastifyServerOptions, FastifyRequest } from 'fastify'
import type { Config } from './schemas/env.js'
import { parseUrlEncoded } from './lib/fields.js'

const API_KEY_IN_URL = /([?&]api_key=)[^&#]*/gi

export function redactUrl (url: string): string {
  return url.replace(API_KEY_IN_URL, '$1[REDACTED]')
}

/**
 * Errors Node reports before a request reaches Fastify (a request not received within
 * requestTimeout, oversized headers, unparsable HTTP): answered in the service's JSON shape,
 * then the connection is closed.
 */
function clientErrorHandler (err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400
  const message =
    status === 408
      ? 'The request was not received in time; send the whole request promptly.'
      : status === 431
        ? 'The request headers are too large.'
        : 'The request is not valid HTTP.'
  const body = JSON.stringify({ code: status, error: STATUS_CODES[status], message })
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Connection: close',
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${randomUUID()}`
  ]
  if (socket.writable) socket.write(`${head.join('\r\n')}\r\n\r\n${body}`)
  socket.destroy()
}

export function serverOptions (
  config: Config,
  logger: FastifyServerOptions['logger'] | boolean = true
): FastifyHttpOptions<Server> {
  return {
    logger:
      logger === true
        ? {
            level: config.logLevel,
            redact: {
              paths: [
                'req.headers.authorization',
                'req.headers["x-admin-token"]',
                'req.body.api_key',
                'req.query.api_key',
                'api_key',
                '*.api_key'
              ],
              censor: '[REDACTED]'
            },
            serializers: {
              req (req: FastifyRequest) {
                return { method: req.method, url: redactUrl(req.url), remoteAddress: req.ip, reqId: req.id }
              }
            }
          }
        : logger,
    // loading and warming every model takes about 5 s on a quiet 2-core machine, but more than
    // Fastify's default 10 s plugin timeout on a busy or slow one; a loader that fails still fails
    // start-up at once, and one that hangs fails it after this
    pluginTimeout: 120_000,
    bodyLimit: config.bodyLimit,
    requestTimeout: config.requestTimeoutMs,
    // a socket idle this long is closed: never while an answer is computed, which the request's
    // deadline (REQUEST_TIMEOUT_MS from its arrival, plugins/core/lifetime.ts) ends first
    connectionTimeout: 2 * config.requestTimeoutMs + 5_000,
    // Node checks request timeouts on this interval (30 s by default, which would double them)
    http: {
      connectionsCheckingInterval: Math.max(250, Math.min(5_000, Math.floor(config.requestTimeoutMs / 4))),
      headersTimeout: config.requestTimeoutMs
    },
    clientErrorHandler,
    keepAliveTimeout: 5_000,
    trustProxy: config.trustProxy,
    // Query strings get the same treatment as urlencoded bodies (repeated and indexed fields).
    routerOptions: {
      querystringParser: (s: string) => parseUrlEncoded(s),
      ignoreTrailingSlash: true
    },
    requestIdHeader: false,
    genReqId: req => {
      const given = req.headers['x-request-id']
      return typeof given === 'string' && /^[\w.:-]{1,64}$/.test(given) ? given : randomUUID()
    },
    ajv: {
      // A JSON number where a string belongs must be refused (406), not coerced.
      customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false }
    }
  }
}
