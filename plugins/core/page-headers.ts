// Security headers for the pages a person opens in a browser, and types an API key or the admin
// token into: the dashboard and the API docs. Registered inside their own (encapsulated) plugins,
// so the API paths run none of it and keep their answers as they were. The CSP allows the
// project's own files only: no inline script or style, no CDN, no framing by any page.
import fp from 'fastify-plugin'
import helmet from '@fastify/helmet'

/** Powerful browser features neither page uses, turned off for them and anything they embed. */
export const PERMISSIONS_POLICY = [
  'accelerometer',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'usb'
]
  .map(f => `${f}=()`)
  .join(', ')

export interface PageHeadersOptions {
  /** img-src beyond 'self' (the dashboard previews uploads as blob: and https images) */
  images?: string[]
  /** style-src beyond 'self': hashes of known inline style elements (swagger-ui's logo) */
  styles?: string[]
}

export default fp<PageHeadersOptions>(
  async (fastify, opts) => {
    await fastify.register(helmet, {
      contentSecurityPolicy: {
        // every directive written out: helmet's defaults add upgrade-insecure-requests, which would
        // break a deployment served over plain http on a private network
        useDefaults: false,
        directives: {
          'default-src': ["'self'"],
          'base-uri': ["'none'"],
          'connect-src': ["'self'"],
          'font-src': ["'self'"],
          'form-action': ["'self'"],
          'frame-ancestors': ["'none'"],
          'img-src': ["'self'", 'data:', ...(opts.images ?? [])],
          'object-src': ["'none'"],
          'script-src': ["'self'"],
          'script-src-attr': ["'none'"],
          'style-src': ["'self'", ...(opts.styles ?? [])]
        }
      },
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
      // HSTS belongs to whatever terminates TLS in front of the service (docs/security.md)
      strictTransportSecurity: false
    })
    fastify.addHook('onRequest', (_req, reply, done) => {
      reply.header('permissions-policy', PERMISSIONS_POLICY)
      done()
    })
  },
  { name: 'page-headers' }
)
