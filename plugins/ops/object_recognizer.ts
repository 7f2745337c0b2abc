import type { FastifyInstance } from 'fastify'
import { imageOperation } from '../../lib/http/image-operation.js'
import { fetcherFor } from '../../lib/image/fetch.js'
import { ObjectRecognizerReply } from '../../schemas/ops/object_recognizer.js'

export default async function objectRecognizer (fastify: FastifyInstance) {
  imageOperation(fastify, {
    op: 'object_recognizer',
    model: 'object_recognizer',
    summary: 'Object labels in an image, best first (top 5), with the detector boxes',
    reply: ObjectRecognizerReply,
    run: async (image, _body, model) => {
      const [result] = await model.predict([image])
      return result
    },
    fetch: fetcherFor(fastify.config)
  })
}
