// How a request body becomes fields: the four encodings of SPEC §2 (urlencoded, multipart,
// query string, JSON) all end as one plain object in request.body, query first, body winning.
import fp from 'fastify-plugin'
import multipart from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import { Errors } from '../../lib/errors.js'
import { addField, foldIndexed, parseUrlEncoded, type Fields } from '../../lib/fields.js'

declare module 'fastify' {
  interface FastifyRequest {
    /** the last bytes of a multipart body, to see that its closing boundary arrived */
    multipartTail: Buffer | null
  }
  interface FastifyContextConfig {
    /** the route reads its parameters with the service's field rules (all four encodings) */
    fields?: boolean
  }
}

function mapMultipartError (err: unknown, limits: { file: number; body: number }): Error {
  const e = err as { code?: string; statusCode?: number; message?: string }
  switch (e.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new Errors.ImageTooLarge(`${limits.file} bytes`)
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new Errors.BodyTooLarge('parts: too many fields or files in the multipart body')
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return new Errors.FieldType('a multipart field sent as application/json', 'valid JSON')
    case 'SVC_TEXT_TOO_LONG':
    case 'SVC_BODY_TOO_LARGE':
      return err as Error
    default:
      return new Errors.MalformedBody(
        `the multipart body is malformed or truncated (${(e.message ?? 'unknown error').slice(0, 80)})`
      )
  }
}

async function readMultipart (req: FastifyRequest): Promise<Fields> {
  const { config } = req.server
  const fields: Fields = {}
  const limits = { file: config.imageMaxBytes, body: config.bodyLimit }
  try {
    const parts = req.parts({
      limits: {
        fileSize: config.imageMaxBytes,
        fieldSize: config.bodyLimit,
        files: 2,
        fields: config.batchMax + 20,
        parts: config.batchMax + 22
      }
    })
    for await (const part of parts) {
      if (part.type === 'file') {
        const data = await part.toBuffer()
        // @fastify/multipart can hand back a file silently cut at fileSize: never analyse a cut file
        if (part.file.truncated) throw new Errors.ImageTooLarge(`${config.imageMaxBytes} bytes`)
        addField(fields, part.fieldname, {
          kind: 'file',
          fieldname: part.fieldname,
          filename: part.filename,
          mimetype: part.mimetype,
          data
        })
      } else {
        if (part.valueTruncated) throw new Errors.BodyTooLarge(`${config.bodyLimit} bytes for field ${part.fieldname}`)
        addField(fields, part.fieldname, part.value)
      }
    }
  } catch (err) {
    throw mapMultipartError(err, limits)
  }
  // busboy drops a part cut off by the end of the body without an error: a complete body ends
  // with its closing delimiter
  const boundary = /boundary="?([^";]+)"?/i.exec(req.headers['content-type'] ?? '')?.[1]
  if (boundary !== undefined && !(req.multipartTail ?? Buffer.alloc(0)).includes(`--${boundary}--`)) {
    throw new Errors.MalformedBody('the multipart body is malformed or truncated (no closing boundary)')
  }
  return foldIndexed(fields)
}

export default fp(
  async fastify => {
    const { config } = fastify

    // The hooks below run on every request: callback style, which costs no promise and no tick.
    fastify.addHook('onRequest', (req, _reply, done) => {
      // a multipart body announcing more than any request may carry is refused before it is read
      const length = Number(req.headers['content-length'])
      if (
        length > config.imageMaxBytes + config.bodyLimit &&
        (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/')
      ) {
        done(new Errors.BodyTooLarge(`${config.imageMaxBytes + config.bodyLimit} bytes for a multipart request`))
        return
      }
      done()
    })

    // Parsers: JSON (an empty body is no fields), urlencoded (repeated and indexed names),
    // multipart (read in preValidation below), and nothing else.
    fastify.removeAllContentTypeParsers()
    const json = fastify.getDefaultJsonParser('remove', 'remove')
    fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
      if ((body as string).trim() === '') {
        done(null, {})
        return
      }
      json(req, body as string, done)
    })
    fastify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, parseUrlEncoded(body as string))
    })
    // Old clients POST with everything in the query string and a stray content type: accept an
    // empty body of any type, refuse a non-empty one we cannot read.
    fastify.addContentTypeParser('*', { parseAs: 'buffer' }, (req, body, done) => {
      if ((body as Buffer).length === 0) {
        done(null, {})
        return
      }
      done(new Errors.UnsupportedMediaType(JSON.stringify(req.headers['content-type'] ?? '')), undefined)
    })

    await fastify.register(multipart, { throwFileSizeLimit: true })

    fastify.decorateRequest('multipartTail', null)
    // @fastify/multipart reads req.raw itself, so the tail is recorded by a 'data' listener on the
    // raw stream (listeners exert no backpressure), left paused until busboy pipes the stream.
    fastify.addHook('preParsing', (req, _reply, payload, done) => {
      if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/')) {
        done(null, payload)
        return
      }
      req.multipartTail = Buffer.alloc(0)
      req.raw.on('data', (chunk: Buffer) => {
        const joined = Buffer.concat([req.multipartTail as Buffer, chunk])
        req.multipartTail = joined.subarray(Math.max(0, joined.length - 512))
      })
      req.raw.pause()
      done(null, payload)
    })

    const merge = (req: FastifyRequest, body: unknown): Error | undefined => {
      // no body at all reads as no fields; a JSON null is a body that is not an object
      if (body === undefined) body = {}
      if (body === null || typeof body !== 'object' || Array.isArray(body) || Buffer.isBuffer(body)) {
        return new Errors.MalformedBody('a JSON body must be an object of fields')
      }
      const query = (req.query ?? {}) as Fields
      req.body = { ...query, ...(body as Fields) }
    }
    fastify.addHook('preValidation', (req, _reply, done) => {
      if (req.routeOptions.config.fields !== true) {
        done()
        return
      }
      if (!req.isMultipart()) {
        done(merge(req, req.body))
        return
      }
      readMultipart(req).then(
        body => done(merge(req, body)),
        (err: Error) => done(err)
      )
    })
  },
  { name: 'request', dependencies: ['config', 'errors'] }
)
