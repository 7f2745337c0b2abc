// Prometheus metrics at GET /metrics: request counts and durations per route and status,
// units analysed per operation, and the process's default metrics.
import fp from 'fastify-plugin'
import { Registry, Counter, Histogram, collectDefaultMetrics } from 'prom-client'

declare module 'fastify' {
  interface FastifyInstance {
    metrics: { registry: Registry; units: Counter<'op'> }
  }
  interface FastifyRequest {
    startedAt: number
  }
}

export default fp(
  async fastify => {
    const registry = new Registry()
    collectDefaultMetrics({ register: registry })
    const requests = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Request duration by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry]
    })
    const units = new Counter({
      name: 'analysed_units_total',
      help: 'Texts or images analysed, by operation',
      labelNames: ['op'],
      registers: [registry]
    })
    fastify.decorate('metrics', { registry, units })
    fastify.decorateRequest('startedAt', 0)
    // callback hooks: these run on every request, and an async hook costs a promise and a tick each
    fastify.addHook('onRequest', (req, _reply, done) => {
      req.startedAt = performance.now()
      done()
    })
    fastify.addHook('onResponse', (req, reply, done) => {
      const route = req.routeOptions.url ?? 'not_found'
      requests.observe(
        { method: req.method, route, status: String(reply.statusCode) },
        (performance.now() - req.startedAt) / 1000
      )
      done()
    })
    fastify.get('/metrics', { schema: { hide: true } }, async (_req, reply) => {
      reply.type(registry.contentType)
      return registry.metrics()
    })
  },
  { name: 'metrics', dependencies: ['config'] }
)
