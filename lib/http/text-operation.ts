// The text operation route: one code path for an operation's single and _batch paths (a single text is a batch
// of one), its texts checked before validation and, when it routes by language, each text run by the model that
// serves its language (lib/text/routing.ts), the answer saying which languages it used. It answers 405 with
// `Allow: POST` to other methods.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox'
import { Errors } from '../errors.js'
import { batchTexts, type Fields } from '../fields.js'
import type { LoadedModel } from '../serving/loaded-model.js'
import { BatchTextBody, SingleTextBody, TEXT_ERRORS, errorResponses } from '../../schemas/common.js'
import { languagesServed, wantsDetection, type RouteAsk, type TextLang } from '../text/routing.js'
import { checkLang, methodNotAllowed, withinDeadline } from './routes.js'

/**
 * The validated fields of a text operation's body besides its texts (the Static of its single-text schema without
 * `text`).
 */
export type TextFields<Body extends TObject = typeof SingleTextBody> = Omit<Static<Body>, 'text'>

/** What every text body holds once validated: one text, or a list on the batch path, and maybe a language. */
interface TextBody {
  text: string | string[]
  lang_code?: string
}

/**
 * A text operation: R is one text's result; Body the schema of its single-text body (the batch
 * body has the same fields, with `text` a list); single and many build the answers of Reply and
 * BatchReply. All four are inferred from the spec.
 */
export interface TextOperation<
  R,
  Body extends TObject = typeof SingleTextBody,
  Reply extends TSchema = TSchema,
  BatchReply extends TSchema = TSchema
> {
  /** path below the prefix, e.g. 'sentiment' or 'new/intent' */
  op: string
  /** model folder in model-store */
  model: string
  summary: string
  batch: boolean
  /** the single and batch body schemas; default SingleTextBody and BatchTextBody */
  body?: { single: Body; batch: TObject }
  reply: Reply
  batchReply?: BatchReply
  /** languages; default: the model manifest's */
  languages?: readonly string[]
  /** one result per text, in order; called once per request with all its texts (an operation that does not
   * route by language) */
  run?: (texts: string[], body: TextFields<Body>, model: LoadedModel<any, any>) => Promise<R[]>
  /** route by language (lib/text/routing.ts): lang_code omitted or "auto" detects each text's language
   * (docs/languages.md); answers carry Content-Language and X-Lang-Source headers and lang_code and lang_source
   * fields ('headers': the headers only, for answers whose every key is a label). Each text's result is then
   * fromOutputs of what the model serving its language predicted. */
  detect?: true | 'headers'
  /** model folders for more languages: a text goes to the first of preferred, model, ...moreLanguages whose
   * manifest lists its language */
  moreLanguages?: readonly string[]
  /** model folders that, when present, serve their languages before `model` does (a blend of it); an
   * operation that runs its texts runs them on the first one installed */
  preferred?: readonly string[]
  /** routed operations: the results from what the model predicted for the texts, calibrated for their language
   * (classify's labelled for probability rows); default: the outputs as they are */
  fromOutputs?: (outputs: any[], model: LoadedModel<any, any>) => R[]
  /** routed operations whose models read {text, lang} (NER, keyphrases) */
  withLang?: true
  single: (r: R) => Static<Reply>
  many?: (rs: R[]) => Static<BatchReply>
}

/** A routed text operation's models, those installed, and the languages they serve. */
function languageRouting<R, Body extends TObject> (
  fastify: FastifyInstance,
  spec: TextOperation<R, Body, any, any>
) {
  const names = [...(spec.preferred ?? []), spec.model, ...(spec.moreLanguages ?? [])]
  // the models are loaded once, before the first request: what is installed is read once too
  let served: readonly string[] | undefined
  // listed from the operation's own model on, whichever serves them
  const listed = [spec.model, ...names.filter(n => n !== spec.model)]
  const supported = () => spec.languages ?? (served ??= languagesServed(listed.map(m => fastify.models.get(m))))
  // a model that is not installed is left out (the operation's own is checked by needModel)
  let present: string[] | undefined
  const installed = () => (present ??= names.filter(n => n === spec.model || fastify.models.get(n) !== undefined))
  // the model an operation that runs its texts runs them on: the first installed of preferred, then its own
  const first = () => fastify.models.get(installed()[0] as string)
  return { supported, installed, first }
}
type LanguageRouting = ReturnType<typeof languageRouting>

/** The route's schema: its summary, the languages it serves when it detects them, its body and its answers. */
function textSchema<R, Body extends TObject> (
  spec: TextOperation<R, Body, any, any>,
  batch: boolean,
  supported: LanguageRouting['supported']
) {
  const replySchema = (batch: boolean) =>
    spec.detect === true
      ? withLangFields(batch ? spec.batchReply : spec.reply, batch)
      : batch
        ? spec.batchReply
        : spec.reply
  return {
    summary: spec.summary + (batch ? ' (a batch of texts)' : ''),
    ...(spec.detect
      ? {
          description:
            `Languages (lang_code): ${(supported() ?? []).join(', ')}. Omitted or "auto": each text's language ` +
            'is detected (English when too short to tell); see docs/languages.md.'
        }
      : {}),
    tags: ['text'],
    consumes: ['application/x-www-form-urlencoded', 'multipart/form-data', 'application/json'],
    body: batch ? (spec.body?.batch ?? BatchTextBody) : (spec.body?.single ?? SingleTextBody),
    response: { 200: replySchema(batch), ...errorResponses(...TEXT_ERRORS) }
  }
}

/**
 * The route's preValidation: the text, or the batch's list of texts, within the limits, and lang_code one the
 * operation serves. Before validation the body holds whatever fields the client sent.
 */
function textPreValidation<R, Body extends TObject> (
  fastify: FastifyInstance,
  spec: TextOperation<R, Body, any, any>,
  batch: boolean,
  supported: LanguageRouting['supported']
) {
  const { config } = fastify
  const checkLimits = (name: string, t: unknown) => {
    if (typeof t === 'string' && t.length > config.textMaxChars) throw new Errors.TextTooLong(name, config.textMaxChars)
  }
  return async (req: FastifyRequest) => {
    const body = req.body as Fields
    if (batch) {
      const texts = batchTexts(body.text)
      if (texts === undefined) throw new Errors.BatchNotArray()
      if (Array.isArray(texts)) {
        if (texts.length > config.batchMax) throw new Errors.BatchTooLarge(config.batchMax, texts.length)
        texts.forEach((t, i) => checkLimits(`text[${i}]`, t))
      }
      body.text = texts
    } else {
      if (Array.isArray(body.text)) throw new Errors.ArrayOnSingle('text', spec.op)
      checkLimits('text', body.text)
    }
    checkLang(
      body,
      spec.op,
      fastify.models.get(spec.model),
      spec.detect ? supported() : spec.languages,
      spec.detect !== undefined
    )
  }
}

/**
 * Each text's result, and when the operation routes by language, the language each was answered in: the texts
 * routed by the registry (in a text worker or here), each result from the model that served its language.
 */
async function textResults<R, Body extends TObject> (
  fastify: FastifyInstance,
  spec: TextOperation<R, Body, any, any>,
  routing: LanguageRouting,
  texts: string[],
  body: TextFields<Body> & TextBody,
  model: LoadedModel<any, any>
): Promise<{ langs: TextLang[] | undefined; results: R[] }> {
  if (spec.run !== undefined) return { langs: undefined, results: await spec.run(texts, body, model) }
  const names = routing.installed()
  const lc = body.lang_code
  const ask: RouteAsk = {
    models: names,
    served: routing.supported() ?? [],
    fallback: names.indexOf(spec.model),
    ...(wantsDetection(lc) ? {} : { langs: texts.map((): TextLang => ({ code: lc as string, source: 'given' })) }),
    ...(spec.withLang === true ? { withLang: true } : {})
  }
  const routed = await fastify.models.route(texts, ask)
  const answer = spec.fromOutputs ?? ((outputs: unknown[]) => outputs as R[])
  const results = routed.map(([, k, out]) => answer([out], fastify.models.get(names[k] as string)!)[0] as R)
  return { langs: routed.map(r => r[0]), results }
}

export function textOperation<
  R,
  Body extends TObject = typeof SingleTextBody,
  Reply extends TSchema = TSchema,
  BatchReply extends TSchema = TSchema
> (fastify: FastifyInstance, spec: TextOperation<R, Body, Reply, BatchReply>): void {
  if ((spec.run === undefined) === (spec.detect === undefined)) {
    throw new Error(`${spec.op}: an operation either routes by language (detect) or runs its texts (run)`)
  }
  const routing = languageRouting(fastify, spec)

  const route = (batch: boolean) => {
    const url = `/${spec.op}${batch ? '_batch' : ''}`
    fastify.route({
      method: 'POST',
      url,
      config: {
        fields: true,
        auth: true,
        quota: 'text',
        op: spec.op + (batch ? '_batch' : ''),
        units: batch ? b => (b.text as unknown[]).length : () => 1
      },
      schema: textSchema(spec, batch, routing.supported),
      preValidation: textPreValidation(fastify, spec, batch, routing.supported),
      handler: async (req, reply) =>
        withinDeadline(req, async () => {
          // validated against the spec's body schema: a type parameter here, which the route's types
          // cannot follow, so the body is typed as its Static (with one text, or a list on the batch path)
          const body = req.body as TextFields<Body> & TextBody
          const model = (spec.run === undefined ? undefined : routing.first()) ??
            fastify.needModel<string, unknown>(spec.model, spec.op)
          const texts = typeof body.text === 'string' ? [body.text] : body.text
          const { langs, results } = await textResults(fastify, spec, routing, texts, body, model)
          fastify.metrics.units.inc({ op: spec.op }, texts.length)
          const out = batch ? (spec.many ?? ((rs: R[]) => rs))(results) : spec.single(results[0] as R)
          return langs === undefined ? out : reportLangs(reply, out, langs, batch, spec.detect === 'headers')
        })
    })
    methodNotAllowed(fastify, url)
  }
  route(false)
  if (spec.batch) route(true)
}

/** A reply schema with the lang_code and lang_source fields (one per text in a batch). */
export function withLangFields (s: TSchema | undefined, batch: boolean): TSchema | undefined {
  if (s === undefined || !('properties' in s)) return s
  const one = Type.String({ description: 'ISO 639-1 code of the language used (docs/languages.md)' })
  const src = Type.Union([Type.Literal('given'), Type.Literal('detected'), Type.Literal('default')], {
    description:
      'given: lang_code; detected: from the text; default: English, the text being too short or unclear ' +
      'to tell, or in a language the operation does not serve'
  })
  return Type.Object({
    ...(s as TObject).properties,
    lang_code: batch ? Type.Array(one) : one,
    lang_source: batch ? Type.Array(src) : src
  })
}

/** Says which languages answered: Content-Language and X-Lang-Source headers (the distinct values),
 * and unless `headersOnly`, lang_code and lang_source fields (one per text in a batch). */
export function reportLangs (
  reply: FastifyReply,
  out: unknown,
  langs: TextLang[],
  batch: boolean,
  headersOnly: boolean
): unknown {
  reply.header('content-language', distinct(langs, 'code'))
  reply.header('x-lang-source', distinct(langs, 'source'))
  if (headersOnly) return out
  const first = langs[0] as TextLang
  return batch
    ? { ...(out as object), lang_code: langs.map(l => l.code), lang_source: langs.map(l => l.source) }
    : { ...(out as object), lang_code: first.code, lang_source: first.source }
}

/** The distinct values of a field, in order of first appearance, comma-separated. */
function distinct (langs: TextLang[], field: 'code' | 'source'): string {
  const seen: string[] = []
  for (const l of langs) if (!seen.includes(l[field])) seen.push(l[field])
  return seen.join(', ')
}
