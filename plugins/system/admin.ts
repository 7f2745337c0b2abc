// Key administration behind ADMIN_TOKEN (Authorization: Bearer <token>): the same operations as
// the `npm run keys` command line.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { createHash, timingSafeEqual } from 'node:crypto'
import { Errors } from '../../lib/errors.js'
import { createKey, publicKey } from '../../lib/keys.js'
import { CreateKeyBody, CreatedKey, KeyParams, PlanChange, PublicKey } from '../../schemas/admin.js'
import { errorResponses } from '../../schemas/common.js'

const digest = (s: string) => createHash('sha256').update(s).digest()

// typed through the TypeBox type provider: bodies and params are the Static<> of their schemas
const admin: FastifyPluginAsyncTypebox = async (fastify) => {
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
    const { key, record } = await createKey(store, req.body.name, { ...config.defaultPlan, ...req.body.plan })
    reply.code(201)
    return { key, record: publicKey(record) }
  })

  fastify.patch('/keys/:id', { schema: { tags: ['admin'], params: KeyParams, body: PlanChange, response: { 200: PublicKey, ...errors } } }, async (req) => {
    const { id } = req.params
    const rec = (await store.listKeys()).find((k) => k.id === id)
    if (rec === undefined) throw new Errors.KeyNotFound(id)
    const next = { ...rec, plan: { ...rec.plan, ...req.body.plan } }
    await store.putKey(next)
    return publicKey(next)
  })

  fastify.delete('/keys/:id', { schema: { tags: ['admin'], params: KeyParams, response: { 200: PublicKey, ...errors } } }, async (req) => {
    const { id } = req.params
    const rec = await store.deleteKey(id)
    if (rec === null) throw new Errors.KeyNotFound(id)
    return publicKey(rec)
  })
}

export default admin
