// The image operation route: a `file` upload or an https `url` (fetched by the spec's fetcher), checked before
// validation, sniffed for its format and handed to the operation's model. It answers 405 with `Allow: POST` to
// other methods.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Static, TSchema } from '@sinclair/typebox'
import { Errors } from '../errors.js'
import { isUploadedFile, type Fields } from '../fields.js'
import { sniffImage, type ImageFormat, type ImageInput } from '../image/sniff.js'
import type { LoadedModel } from '../serving/loaded-model.js'
import { IMAGE_ERRORS, errorResponses } from '../../schemas/common.js'
import { ImageBody } from '../../schemas/ops/image.js'
import { methodNotAllowed, withinDeadline } from './routes.js'

export interface ImageOperation<Reply extends TSchema> {
  op: string
  model: string
  summary: string
  reply: Reply
  run: (image: ImageInput, body: Static<typeof ImageBody>, model: LoadedModel<any, any>) => Promise<Static<Reply>>
  /** fetches an https address safely (SSRF guard, size and time caps) */
  fetch: (url: string) => Promise<Buffer>
}

export function imageOperation<Reply extends TSchema> (fastify: FastifyInstance, spec: ImageOperation<Reply>): void {
  const url = `/${spec.op}`
  fastify.withTypeProvider<TypeBoxTypeProvider>().route({
    method: 'POST',
    url,
    config: { fields: true, auth: true, quota: 'image', op: spec.op },
    schema: {
      summary: spec.summary,
      tags: ['image'],
      consumes: ['multipart/form-data', 'application/x-www-form-urlencoded', 'application/json'],
      body: ImageBody,
      // the answer's schema is the spec's Reply, a type parameter here that the route's types cannot
      // follow; run is typed to return its Static instead
      response: { 200: spec.reply as TSchema, ...errorResponses(...IMAGE_ERRORS) }
    },
    // before validation the body holds whatever fields the client sent
    preValidation: async (req: FastifyRequest) => {
      const body = req.body as Fields
      const hasFile = body.file !== undefined && body.file !== ''
      const hasUrl = body.url !== undefined && body.url !== ''
      if (hasFile && hasUrl) throw new Errors.ImageSource('both were given')
      if (!hasFile && !hasUrl) throw new Errors.ImageSource('neither was given')
      if (hasFile) {
        if (Array.isArray(body.file)) throw new Errors.RepeatedField('file', body.file.length)
        if (!isUploadedFile(body.file)) throw new Errors.FieldType('file', 'an uploaded file (multipart/form-data)')
        if (body.file.data.length > fastify.config.imageMaxBytes) {
          throw new Errors.ImageTooLarge(`${fastify.config.imageMaxBytes} bytes`)
        }
        if (sniffImage(body.file.data) === null) throw new Errors.UnsupportedImage('')
        delete body.url
      } else {
        if (typeof body.url !== 'string') throw new Errors.FieldType('url', 'a string')
        let parsed: URL
        try {
          parsed = new URL(body.url.trim())
        } catch {
          throw new Errors.UrlNotHttps()
        }
        if (parsed.protocol !== 'https:') throw new Errors.UrlNotHttps()
        delete body.file
      }
    },
    handler: async req =>
      withinDeadline(req, async () => {
        const { body } = req
        const model = fastify.needModel<unknown, unknown>(spec.model, spec.op)
        let image: ImageInput
        if (isUploadedFile(body.file)) {
          image = { data: body.file.data, format: sniffImage(body.file.data) as ImageFormat, source: 'file' }
        } else {
          // preValidation let through no request without a file or a url
          const data = await spec.fetch(body.url!.trim())
          const format = sniffImage(data)
          if (format === null) throw new Errors.UnsupportedImage(' (the address did not serve one)')
          image = { data, format, source: 'url' }
        }
        const out = await spec.run(image, body, model)
        fastify.metrics.units.inc({ op: spec.op }, 1)
        return out
      })
  })
  methodNotAllowed(fastify, url)
}
