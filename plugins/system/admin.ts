// Key administration behind ADMIN_TOKEN (Authorization: Bearer <token>): the same operations as
// the `npm run keys` command line.
import type { FastifyInstance } from 'fastify'
import { Type } from '@sinclair/typebox'
import { createHash, timingSafeEqual } from 'node:crypto'
import { Errors } from '../../lib/errors.js'
import { createKey, publicKey } from '../../lib/keys.js'
import { CreateKeyBody, CreatedKey, PlanPatch, PublicKey } from '../../schemas/admin.js'
import { errorResponses } from '../../schemas/common.js'
import type { Plan } from '../../lib/store/types.js'

const digest = (s: string) => createHash('sha256').update(s).digest()

export default async function admin (fastify: FastifyInstance) {
  const { config, store } = fastify
  const token = config.adminToken === null ? null : digest(config.adminToken)

  fastify.addHook('onRequest', async (req) => {
    if (token === null) throw new Errors.AdminDisabled()
    const auth = req.headers.authorization ?? ''
    const given = auth.startsWith('Bearer ') ? auth.slice(7) : (req.headers['x-admin-token'] as string | undefined) ?? ''
    if (!timingSafeEqual(digest(given), token)) throw new Errors.AdminUnauthorized()
  })

  const errors = errorResponses(400, 401, 404, 406, 503)
  fastify.get('/keys', { schema: { tags: ['admin'], response: { 200: Type.Object({ keys: Type.Array(PublicKey) }), ...errors } } },
    async () => ({ keys: (await store.listKeys()).map(publicKey) }))

  fastify.post('/keys', { schema: { tags: ['admin'], body: CreateKeyBody, response: { 201: CreatedKey, ...errors } } }, async (req, reply) => {
    const body = req.body as { name: string, plan?: Partial<Plan> }
    const { key, record } = await createKey(store, body.name, { ...config.defaultPlan, ...body.plan })
    reply.code(201)
    return { key, record: publicKey(record) }
  })

  fastify.patch('/keys/:id', { schema: { tags: ['admin'], params: Type.Object({ id: Type.String() }), body: Type.Object({ plan: PlanPatch }), response: { 200: PublicKey, ...errors } } }, async (req) => {
    const { id } = req.params as { id: string }
    const rec = (await store.listKeys()).find((k) => k.id === id)
    if (rec === undefined) throw new Errors.KeyNotFound(id)
    const next = { ...rec, plan: { ...rec.plan, ...(req.body as { plan: Partial<Plan> }).plan } }
    await store.putKey(next)
    return publicKey(next)
  })

  fastify.delete('/keys/:id', { schema: { tags: ['admin'], params: Type.Object({ id: Type.String() }), response: { 200: PublicKey, ...errors } } }, async (req) => {
    const { id } = req.params as { id: string }
    const rec = await store.deleteKey(id)
    if (rec === null) throw new Errors.KeyNotFound(id)
    return publicKey(rec)
  })
}
