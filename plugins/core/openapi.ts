// The OpenAPI document is generated from the same TypeBox schemas the routes validate with.
// /docs serves swagger-ui's own files from node_modules (no CDN), under the pages' security headers
// (in a context of its own, so that they are not on the API's answers).
import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import pageHeaders from './page-headers.js'

/**
 * swagger-ui's top bar draws its logo with one inline <style> element: the CSP allows it by the
 * hash of its text, read from the installed swagger-ui (so an upgrade keeps it right), and no other
 * inline style.
 */
export function swaggerInlineStyleHashes (): string[] {
  const dir = dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui'))
  const preset = readFileSync(join(dir, 'static', 'swagger-ui-standalone-preset.js'), 'utf8')
  return [...preset.matchAll(/createElement\("style",null,("(?:[^"\\]|\\.)*")\)/g)].map(
    m =>
      `'sha256-${createHash('sha256')
        .update(JSON.parse(m[1]!) as string)
        .digest('base64')}'`
  )
}

export default fp(
  async fastify => {
    await fastify.register(swagger, {
      openapi: {
        info: {
          title: 'Open text and image analysis API',
          description:
            'Wire-compatible with the ParallelDots v4 API. Every operation accepts multipart/form-data, ' +
            'application/x-www-form-urlencoded, application/json or query-string parameters.',
          version: '4.0.0'
        },
        components: {}
      }
    })
    await fastify.register(async docs => {
      await docs.register(pageHeaders, { styles: swaggerInlineStyleHashes() })
      await docs.register(swaggerUi, { routePrefix: '/docs' })
    })
    fastify.get('/openapi.json', { schema: { hide: true } }, async () => fastify.swagger())
  },
  { name: 'openapi', dependencies: ['config'] }
)
