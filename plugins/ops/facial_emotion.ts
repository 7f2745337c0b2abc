import type { FastifyInstance } from 'fastify'
import { imageOperation } from '../../lib/http/image-operation.js'
import { fetcherFor } from '../../lib/image/fetch.js'
import { FacialEmotionReply } from '../../schemas/ops/facial_emotion.js'

export default async function facialEmotion (fastify: FastifyInstance) {
  imageOperation(fastify, {
    op: 'facial_emotion',
    model: 'facial_emotion',
    summary: "Facial emotion of every face in an image; the top-level list is the largest face's",
    reply: FacialEmotionReply,
    run: async (image, _body, model) => {
      const [result] = await model.predict([image])
      return result
    },
    fetch: fetcherFor(fastify.config)
  })
}
