// The OpenAPI document is generated from the same TypeBox schemas the routes validate with.
// /docs serves swagger-ui's own files from node_modules (no CDN), under the pages' security headers
// (in a context of its own, so that they are not on the API's answers).
import fp from 'fastify-plugin'
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import pageHeaders from './page-headers.js'

export default fp(async (fastify) => {
  await fastify.register(swagger, {
    openapi: {
      info: {
        title: 'Open text and image analysis API',
        description: 'Wire-compatible with the ParallelDots v4 API. Every operation accepts multipart/form-data, application/x-www-form-urlencoded, application/json or query-string parameters.',
        version: '4.0.0'
      },
      components: {}
    }
  })
  await fastify.register(async (docs) => {
    await docs.register(pageHeaders)
    await docs.register(swaggerUi, { routePrefix: '/docs' })
  })
  fastify.get('/openapi.json', { schema: { hide: true } }, async () => fastify.swagger())
}, { name: 'openapi', dependencies: ['config'] })
