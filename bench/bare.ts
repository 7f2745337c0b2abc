// The ceiling: a bare Fastify route with the service's own server options and urlencoded parser,
// doing no work, measured by the load test beside the real endpoints.
import Fastify from 'fastify'
import { serverOptions } from '../options.js'
import { loadConfig } from '../lib/config.js'
import { parseUrlEncoded } from '../lib/fields.js'

const config = loadConfig()
const app = Fastify(serverOptions(config, false))
app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
  done(null, parseUrlEncoded(body as string))
})
app.post('/bare', async req => ({ ok: typeof (req.body as Record<string, unknown>).text === 'string' }))
// A reference beside the ceiling: the same route spending 10 us of CPU on each request. On a small
// machine that shares its cores with the load generator, it shows how little work per request
// already costs half of the ceiling.
app.post('/bare-10us', async req => {
  const until = performance.now() + 0.01
  while (performance.now() < until) {
    /* 10 us of work */
  }
  return { ok: typeof (req.body as Record<string, unknown>).text === 'string' }
})
await app.listen({ host: config.host, port: config.port })
