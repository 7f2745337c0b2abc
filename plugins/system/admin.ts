// Key administration behind ADMIN_TOKEN (Authorization: Bearer <token>): the same operations as
// the `npm run keys` command line. Bodies are JSON, or forms whose plan fields are named
// plan[textDaily] ...; a plan field the schema does not know, or a limit that is not a whole
// number (or null), is a 400 naming it. Wrong tokens are throttled per address (lib/admin-guard.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { Errors, withHeaders } from '../../lib/errors.js'
import { AdminGuard, givenToken } from '../../lib/admin-guard.js'
import { foldIndexed, type Fields } from '../../lib/fields.js'
import { createKey, publicKey } from '../../lib/keys.js'
import { CreateKeyBody, CreatedKey, KeyParams, PlanChange, PublicKey } from '../../schemas/admin.js'
import { errorResponses } from '../../schemas/common.js'

/** A form's plan[field] values as the JSON body would hold them: whole numbers, and null for '' or "null". */
function formPlan (body: Fields): Fields {
  const out: Fields = {}
  const plan: Fields = {}
  for (const [k, v] of Object.entries(body)) {
    const m = /^plan\[(\w+)\]$/.exec(k)
    if (m === null) {
      out[k] = v
      continue
    }
    const number = typeof v === 'string' && /^\d+(\.\d+)?$/.test(v)
    plan[m[1] as string] = v === '' || v === 'null' ? null : number ? Number(v) : v
  }
  return Object.keys(plan).length === 0 ? out : { ...out, plan }
}

// typed through the TypeBox type provider: bodies and params are the Static<> of their schemas
const admin: FastifyPluginAsyncTypebox = async fastify => {
  const { config, store } = fastify
  const guard = config.adminToken === null ? null : new AdminGuard(config.adminToken)

  fastify.addHook('onRequest', async req => {
    if (guard === null) throw new Errors.AdminDisabled()
    const wait = guard.waitOf(req.ip)
    if (wait > 0) throw withHeaders(new Errors.AdminThrottled(wait), { 'retry-after': wait })
    if (!guard.check(req.ip, givenToken(req.headers.authorization, req.headers['x-admin-token']))) {
      throw new Errors.AdminUnauthorized()
    }
  })
  fastify.addHook('preValidation', async req => {
    const form = (req.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')
    if (form && req.body !== null && typeof req.body === 'object') req.body = formPlan(foldIndexed(req.body as Fields))
  })

  const errors = errorResponses(400, 401, 404, 406, 429, 503)
  fastify.get(
    '/keys',
    { schema: { tags: ['admin'], response: { 200: Type.Object({ keys: Type.Array(PublicKey) }), ...errors } } },
    async () => ({ keys: (await store.listKeys()).map(publicKey) })
  )

  fastify.post(
    '/keys',
    { schema: { tags: ['admin'], body: CreateKeyBody, response: { 201: CreatedKey, ...errors } } },
    async (req, reply) => {
      const { key, record } = await createKey(store, req.body.name, { ...config.defaultPlan, ...req.body.plan })
      reply.code(201)
      return { key, record: publicKey(record) }
    }
  )

  fastify.patch(
    '/keys/:id',
    { schema: { tags: ['admin'], params: KeyParams, body: PlanChange, response: { 200: PublicKey, ...errors } } },
    async req => {
      const { id } = req.params
      const rec = (await store.listKeys()).find(k => k.id === id)
      if (rec === undefined) throw new Errors.KeyNotFound(id)
      const next = { ...rec, plan: { ...rec.plan, ...req.body.plan } }
      await store.putKey(next)
      return publicKey(next)
    }
  )

  fastify.delete(
    '/keys/:id',
    { schema: { tags: ['admin'], params: KeyParams, response: { 200: PublicKey, ...errors } } },
    async req => {
      const { id } = req.params
      const rec = await store.deleteKey(id)
      if (rec === null) throw new Errors.KeyNotFound(id)
      return publicKey(rec)
    }
  )
}

export default admin
