// Operations of the real API that this server does not offer, answered 501 (not charged, no key
// needed) rather than 404, so that a client calling them learns why: text_parser (no dependency
// parser is trained here) and popularity (no image-popularity model or data).
import type { FastifyInstance } from 'fastify'
import { Errors } from '../../lib/errors.js'
import { errorResponses } from '../../schemas/common.js'

const ABSENT: Record<string, string> = {
  text_parser: 'it has no dependency parser (none is trained or shipped here).',
  popularity: 'it has no image-popularity model (no model or data for one is shipped here).'
}

export default async function notOffered (fastify: FastifyInstance) {
  for (const [op, why] of Object.entries(ABSENT)) {
    fastify.route({
      method: 'POST',
      url: `/${op}`,
      schema: {
        summary: `Not offered by this server: answers 501 (${op})`,
        tags: ['absent'],
        response: errorResponses(501)
      },
      handler: async () => {
        throw new Errors.NotOffered(op, why)
      }
    })
  }
}
