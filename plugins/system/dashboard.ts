// The dashboard the 403 message points to: static files of the project (dashboard/), no CDN.
import type { FastifyInstance } from 'fastify'
import fastifyStatic from '@fastify/static'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'

const root = join(import.meta.dirname, '..', '..', 'dashboard')

export default async function dashboard (fastify: FastifyInstance) {
  await fastify.register(fastifyStatic, { root, prefix: '/dashboard/', decorateReply: false, index: false, schemaHide: true })
  // /dashboard and /dashboard/ reach this route (trailing slashes are ignored); relative asset
  // addresses need the slash
  fastify.get('/dashboard', { schema: { hide: true } }, async (req, reply) => {
    if (!req.url.split('?')[0]!.endsWith('/')) return reply.redirect('/dashboard/')
    return reply.type('text/html; charset=utf-8').send(await readFile(join(root, 'index.html')))
  })
}
