import type { FastifyInstance } from 'fastify'
import { imageOperation } from '../../lib/http/image-operation.js'
import { fetcherFor } from '../../lib/image/fetch.js'
import type { NsfwResult } from '../../lib/image/types.js'
import { NsfwReply } from '../../schemas/ops/nsfw.js'

export default async function nsfw (fastify: FastifyInstance) {
  imageOperation(fastify, {
    op: 'nsfw',
    model: 'nsfw',
    summary: 'Whether an image is safe to open at work, with the probability of that answer',
    reply: NsfwReply,
    run: async (image, _body, model) => {
      const [result] = (await model.predict([image])) as [NsfwResult]
      return { output: result.output, prob: result.prob }
    },
    fetch: fetcherFor(fastify.config)
  })
}
