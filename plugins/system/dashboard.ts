// The dashboard the 403 message points to: static files of the project (dashboard/), no CDN,
// under the pages' security headers (plugins/core/page-headers.ts).
import type { FastifyInstance } from 'fastify'
import fastifyStatic from '@fastify/static'
import pageHeaders from '../core/page-headers.js'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..', '..', 'dashboard')

export default async function dashboard (fastify: FastifyInstance) {
  // the playground previews an uploaded file (blob:) or an image address (https:)
  await fastify.register(pageHeaders, { images: ['blob:', 'https:'] })
  await fastify.register(fastifyStatic, {
    root,
    prefix: '/dashboard/',
    decorateReply: false,
    index: false,
    schemaHide: true
  })
  // /dashboard and /dashboard/ reach this route (trailing slashes are ignored); relative asset
  // addresses need the slash
  fastify.get('/dashboard', { schema: { hide: true } }, async (req, reply) => {
    if (!req.url.split('?')[0]!.endsWith('/')) return reply.redirect('/dashboard/')
    return reply.type('text/html; charset=utf-8').send(await readFile(join(root, 'index.html')))
  })
}
