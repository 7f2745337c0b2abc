// Fastify options shared by server.ts and the tests, so tests run the production configuration.
import { randomUUID } from 'node:crypto'
import type { FastifyServerOptions, FastifyRequest } from 'fastify'
import type { Config } from './schemas/env.js'
import { parseUrlEncoded } from './lib/fields.js'

const API_KEY_IN_URL = /([?&]api_key=)[^&#]*/gi

export function redactUrl (url: string): string {
  return url.replace(API_KEY_IN_URL, '$1[REDACTED]')
}

export function serverOptions (config: Config, logger: FastifyServerOptions['logger'] | boolean = true): FastifyServerOptions {
  return {
    logger: logger === true
      ? {
          level: config.logLevel,
          redact: {
            paths: ['req.headers.authorization', 'req.headers["x-admin-token"]', 'req.body.api_key', 'req.query.api_key', 'api_key', '*.api_key'],
            censor: '[REDACTED]'
          },
          serializers: {
            req (req: FastifyRequest) {
              return { method: req.method, url: redactUrl(req.url), remoteAddress: req.ip, reqId: req.id }
            }
          }
        }
      : logger,
    bodyLimit: config.bodyLimit,
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs + 5_000,
    keepAliveTimeout: 5_000,
    trustProxy: config.trustProxy,
    // Query strings get the same treatment as urlencoded bodies (repeated and indexed fields).
    routerOptions: {
      querystringParser: (s: string) => parseUrlEncoded(s),
      ignoreTrailingSlash: true
    },
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id']
      return typeof given === 'string' && /^[\w.:-]{1,64}$/.test(given) ? given : randomUUID()
    },
    ajv: {
      // A JSON number where a string belongs must be refused (406), not coerced.
      customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false }
    }
  }
}
