// POST /usage (and /v4/usage): the caller's quotas, what is used of them, and 30 days of history.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { UsageBody, UsageReply } from '../../schemas/usage.js'
import { errorResponses } from '../../schemas/common.js'
import { planLimits } from '../../lib/store/types.js'
import { Errors } from '../../lib/errors.js'
import { storeUnavailable } from '../../lib/metering.js'
import { methodNotAllowed } from '../../lib/http/routes.js'

// typed through the TypeBox type provider: the answer is checked against UsageReply's Static<>
const usage: FastifyPluginAsyncTypebox = async fastify => {
  for (const url of ['/usage', '/v4/usage']) {
    fastify.post(
      url,
      {
        config: { fields: true, auth: true },
        schema: {
          tags: ['system'],
          summary: 'Quotas and usage of an API key',
          body: UsageBody,
          response: { 200: UsageReply, ...errorResponses(400, 401, 406, 429, 503) }
        }
      },
      async req => {
        const key = req.apiKey
        if (key === null) throw new Errors.InvalidApiKey()
        const now = fastify.clock()
        try {
          const [text, image, history] = await Promise.all([
            fastify.store.usage(key.id, 'text', planLimits(key.plan, 'text'), now),
            fastify.store.usage(key.id, 'image', planLimits(key.plan, 'image'), now),
            fastify.store.history(key.id, now, 30)
          ])
          return { key: { id: key.id, name: key.name }, rate_limit: key.plan.rate, text, image, history }
        } catch {
          throw storeUnavailable()
        }
      }
    )
    methodNotAllowed(fastify, url)
  }
}

export default usage
