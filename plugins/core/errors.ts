// One error handler turns every error (ours, Fastify's, @fastify/multipart's, @fastify/rate-limit's,
// validation) into the one JSON shape {code, error, message}; 5xx bodies reveal no internals.
import fp from 'fastify-plugin'
import { STATUS_CODES } from 'node:http'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { Errors, type ServiceError } from '../../lib/errors.js'

interface ValidationIssue {
  keyword: string
  instancePath: string
  params: Record<string, unknown>
  message?: string
}

function fieldName (issue: ValidationIssue): string {
  const parts = issue.instancePath.split('/').filter(Boolean)
  if (issue.keyword === 'required') parts.push(String(issue.params.missingProperty))
  const [head, ...rest] = parts
  return (head ?? 'body') + rest.map(p => `[${p}]`).join('')
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`)

/** ajv's first error, in the service's words: missing and empty are 400, a wrong type is 406 (a
 * text of a batch, or a field inside an object, 400). */
function fromValidation (issues: ValidationIssue[]): Error {
  const issue = issues[0] as ValidationIssue
  const name = fieldName(issue)
  const parts = issue.instancePath.split('/').filter(Boolean)
  const inBatch = parts.length > 1 && parts[0] === 'text'
  const nested = parts.length > 1 && !inBatch
  switch (issue.keyword) {
    case 'required':
      return new Errors.MissingField(name)
    case 'additionalProperties': {
      const field = String(issue.params.additionalProperty)
      const named = parts.length === 0 ? field : `${name}[${field}]`
      return new Errors.InvalidField(`${named} is not a field this path takes.`)
    }
    case 'minLength':
    case 'pattern':
      if (nested) return new Errors.InvalidField(`${name} must be a non-empty string.`)
      return inBatch ? new Errors.BatchItem(name.replace(/^\w+\[|\]$/g, '')) : new Errors.EmptyText(name)
    case 'minItems':
      return new Errors.BatchEmpty()
    case 'type': {
      if (inBatch) return new Errors.BatchItem(name.replace(/^\w+\[|\]$/g, ''))
      if (nested) {
        const orNull = issues.some(i => i.instancePath === issue.instancePath && i.params.type === 'null')
        const want = article(String(issue.params.type)) + (orNull ? ' or null' : '')
        return new Errors.InvalidField(`${name} must be ${want}.`)
      }
      const want = String(issue.params.type)
      return new Errors.FieldType(
        name,
        want === 'string' ? 'a string' : want === 'array' ? 'an array of strings' : `of type ${want}`
      )
    }
    case 'enum':
    case 'const':
      return new Errors.InvalidField(
        `${name} must be one of: ${JSON.stringify(issue.params.allowedValues ?? issue.params.allowedValue)}.`
      )
    default:
      return new Errors.InvalidField(`${name} is invalid: ${issue.message ?? issue.keyword}.`)
  }
}

/** Fastify's own error codes, mapped to the service's errors. */
function fromFramework (err: FastifyError, req: FastifyRequest): Error | null {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new Errors.BodyTooLarge(`${req.server.config.bodyLimit} bytes`)
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new Errors.UnsupportedMediaType(JSON.stringify(req.headers['content-type'] ?? ''))
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new Errors.MalformedBody('the JSON is invalid')
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new Errors.MalformedBody('Content-Length does not match the body')
    case 'FST_ERR_CTP_INVALID_TYPE':
    case 'FST_ERR_CTP_INVALID_HANDLER':
      return new Errors.UnsupportedMediaType(JSON.stringify(req.headers['content-type'] ?? ''))
    default:
      break
  }
  if (err instanceof SyntaxError) return new Errors.MalformedBody('the JSON is invalid')
  return null
}

/** What a library's bare 4xx (a reason phrase, no more) tells the user. */
function libraryRefusal (req: FastifyRequest, status: number): string {
  const path = req.url.split('?')[0] ?? ''
  const nul = /%00/i.test(path) ? ' (it holds a NUL byte, %00)' : ''
  return `${STATUS_CODES[status] ?? 'Refused'}: ${req.method} ${path.slice(0, 200)} cannot be answered as sent${nul}.`
}

export function sendError (
  reply: FastifyReply,
  status: number,
  message: string,
  headers?: Record<string, string | number>
): FastifyReply {
  if (headers !== undefined) reply.headers(headers)
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ code: status, error: STATUS_CODES[status] ?? 'Error', message })
}

export default fp(
  async fastify => {
    fastify.setErrorHandler((error: FastifyError, req, reply) => {
      let err: Error = error
      if (error.validation !== undefined && error.validation.length > 0) {
        err = fromValidation(error.validation as unknown as ValidationIssue[])
      } else {
        err = fromFramework(error, req) ?? error
      }
      const e = err as ServiceError
      let status = typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode <= 599 ? e.statusCode : 500
      if (status === 304) status = 500
      const ours = typeof e.code === 'string' && e.code.startsWith('SVC_')
      let message = e.message
      if (status >= 500) {
        if (!ours) {
          req.log.error({ err: error }, 'request failed')
          message = `Internal error; quote request id ${req.id} when reporting it.`
        } else {
          req.log.warn({ code: e.code }, e.message)
        }
      } else if (!ours) {
        // a 4xx from a library: keep its text where it names the problem, not where it is only the reason phrase
        const bare = e.message === '' || e.message === STATUS_CODES[status]
        message = bare ? libraryRefusal(req, status) : e.message
      }
      // a body refused before it was read whole is not drained: the connection closes
      if (status === 413 || (status === 400 && e.code === 'SVC_MALFORMED_BODY')) reply.header('connection', 'close')
      return sendError(reply, status, message, e.headers)
    })

    fastify.setNotFoundHandler((req, reply) => {
      const e = new Errors.NotFound(req.method, req.url.split('?')[0])
      return sendError(reply, 404, e.message)
    })
  },
  { name: 'errors', dependencies: ['config'] }
)
