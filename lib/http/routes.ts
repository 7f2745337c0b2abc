// The route pieces every operation plugin shares: the request's deadline, the 405 answer with
// `Allow: POST` to other methods, and the check of `lang_code`. A text operation's route is in
// text-operation.ts, an image operation's in image-operation.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Errors, withHeaders } from '../errors.js'
import type { Fields } from '../fields.js'
import type { LoadedModel } from '../serving/loaded-model.js'

/** fn's answer within the request's deadline (lib/runtime/deadline.ts): a 503 once it passes. */
export function withinDeadline<T> (req: FastifyRequest, fn: () => Promise<T>): Promise<T> {
  return req.deadline === null ? fn() : req.deadline.run(fn)
}

export function methodNotAllowed (fastify: FastifyInstance, url: string): void {
  fastify.route({
    method: ['GET', 'PUT', 'PATCH', 'DELETE'],
    url,
    schema: { hide: true },
    handler: async req => {
      throw withHeaders(new Errors.MethodNotAllowed(req.method, req.routeOptions.url ?? url), { allow: 'POST' })
    }
  })
}

/** Languages a model serves; `lang_code` must be one of them (omitted means en, or detection when
 * `auto` is allowed; then "auto" is accepted too). */
export function checkLang (
  body: Fields,
  op: string,
  model: LoadedModel<any, any> | undefined,
  supported?: readonly string[],
  auto = false
): void {
  const langs = supported ?? model?.manifest.languages
  if (langs === undefined) return
  const lc = body.lang_code
  if (lc === undefined) return
  if (typeof lc !== 'string') throw new Errors.FieldType('lang_code', 'a string')
  if (auto && lc.trim().toLowerCase() === 'auto') {
    body.lang_code = 'auto'
    return
  }
  if (!langs.includes(lc.trim().toLowerCase())) throw new Errors.UnsupportedLang(lc, op, langs.join(', '))
  body.lang_code = lc.trim().toLowerCase()
}
