// /similarity has no batch twin and takes two texts, each of at least two words.
import type { FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Errors } from '../../lib/errors.js'
import type { Fields } from '../../lib/fields.js'
import { checkLang, methodNotAllowed, withinDeadline } from '../../lib/http/routes.js'
import { TEXT_ERRORS, errorResponses } from '../../schemas/common.js'
import { SimilarityBody, SimilarityReply } from '../../schemas/ops/similarity.js'

const WORD = /[\p{L}\p{N}]+/gu

export function wordCount (s: string): number {
  return s.match(WORD)?.length ?? 0
}

// typed through the TypeBox type provider: the handler's body and answer are the Static<> of their schemas
const similarity: FastifyPluginAsyncTypebox = async fastify => {
  const { config } = fastify
  fastify.route({
    method: 'POST',
    url: '/similarity',
    config: { fields: true, auth: true, quota: 'text', op: 'similarity', units: () => 1 },
    schema: {
      summary: 'Semantic similarity of two texts: similarity_score in [0, 1], normalized_score in [0, 5]',
      tags: ['text'],
      consumes: ['application/x-www-form-urlencoded', 'multipart/form-data', 'application/json'],
      body: SimilarityBody,
      response: { 200: SimilarityReply, ...errorResponses(...TEXT_ERRORS) }
    },
    // before validation the body holds whatever fields the client sent
    preValidation: async (req: FastifyRequest) => {
      const body = req.body as Fields
      for (const name of ['text_1', 'text_2']) {
        const t = body[name]
        if (Array.isArray(t)) {
          throw new Errors.ArrayOnSingle(name, 'similarity (which has no batch path; send one pair)')
        }
        if (typeof t === 'string') {
          if (t.length > config.textMaxChars) throw new Errors.TextTooLong(name, config.textMaxChars)
          if (t.trim() !== '' && wordCount(t) < 2) throw new Errors.TooFewWords(name)
        }
      }
      checkLang(body, 'similarity', fastify.models.get('similarity'))
    },
    handler: async req =>
      withinDeadline(req, async () => {
        const { text_1: a, text_2: b, lang_code: lang = 'en' } = req.body
        const model = fastify.needModel<{ a: string; b: string; lang: string }, number>('similarity', 'similarity')
        const [s] = await model.predict([{ a, b, lang }])
        const score = Math.min(1, Math.max(0, s as number))
        fastify.metrics.units.inc({ op: 'similarity' }, 1)
        return { similarity_score: score, actual_score: score, normalized_score: 5 * score }
      })
  })
  methodNotAllowed(fastify, '/similarity')
}

export default similarity
