// The route shapes every operation plugin shares. A text operation is one code path for its
// single and _batch paths (a single text is a batch of one); an image operation takes a `file`
// upload or an https `url`. Both answer 405 with `Allow: POST` to other methods.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Static, TObject, TSchema } from '@sinclair/typebox'
import { Errors, withHeaders } from '../errors.js'
import { batchTexts, isUploadedFile, type Fields } from '../fields.js'
import { sniffImage, type ImageFormat, type ImageInput } from '../image/sniff.js'
import type { LoadedModel } from '../serving/models.js'
import { BatchTextBody, IMAGE_ERRORS, SingleTextBody, TEXT_ERRORS, errorResponses } from '../../schemas/common.js'
import { ImageBody } from '../../schemas/ops/image.js'
import type { Routed } from '../text/pool/protocol.js'
import type { ModelRegistry } from '../serving/registry.js'
import {
  DETECTOR,
  forLanguage,
  languagesOf,
  wantsDetection,
  languagesServed,
  modelFor,
  reportLangs,
  runByLanguage,
  withLangFields,
  type TextLang
} from './lang-route.js'

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

/** The validated fields of a text operation's body besides its texts (the Static of its single-text schema without `text`). */
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
  /** one result per text, in order; called once per request with all its texts */
  run: (texts: string[], body: TextFields<Body>, model: LoadedModel<any, any>) => Promise<R[]>
  /** route by language: lang_code omitted or "auto" detects each text's language (docs/languages.md);
   * answers carry Content-Language and X-Lang-Source headers and lang_code and lang_source fields
   * ('headers': the headers only, for answers whose every key is a label) */
  detect?: boolean | 'headers'
  /** more model folders, for other languages: a text goes to the first of model, ...models whose
   * manifest lists its language */
  models?: readonly string[]
  /** model folders that, when present, serve their languages before `model` does (a blend of it) */
  preferred?: readonly string[]
  /** run hands its texts, as they are, to one model.predict call and only reshapes its rows (as
   * classify does): a text whose language is to be detected then crosses to a text worker once,
   * which detects and predicts (lib/text/pool/pool.ts runDetected) */
  predictsTexts?: boolean
  single: (r: R) => Static<Reply>
  many?: (rs: R[]) => Static<BatchReply>
}

/**
 * The languages routed by (as routedLangs routes them) and each text's results, detected and
 * predicted in a text worker (`run`); spec.run only reshapes the rows, given a model whose predict
 * answers them.
 */
async function detectedAndRun<R, Body extends TObject> (
  spec: TextOperation<R, Body, any, any>,
  run: DetectingRunner,
  texts: string[],
  body: TextFields<Body>,
  ok: readonly string[],
  modelOf: (lang: string) => LoadedModel<any, any>
): Promise<{ langs: TextLang[]; results: R[] }> {
  const routed = await run(texts, ok)
  const langs = routed.map(([code, sure]): TextLang => ({ code, source: sure ? 'detected' : 'default' }))
  const results = await runByLanguage(texts, langs, (ts, lang, idx) => {
    // the rows are in already
    const rows: unknown[] = idx.map(i => (routed[i] as Routed)[2])
    return spec.run(
      ts,
      { ...body, lang_code: lang },
      forLanguage({ ...modelOf(lang), predict: async () => rows }, lang)
    )
  })
  return { langs, results }
}
type DetectingRunner = NonNullable<ReturnType<ModelRegistry['detectingRunner']>>

/**
 * Requests of up to this many texts whose languages are to be detected are detected in the text
 * worker that classifies them, in the same message; larger ones on the main thread, as the text
 * worker classifies others meanwhile. Single sentiment texts: main thread 60-65 -> 50 us of CPU per
 * request, text worker 18-20 -> 31 us; batches of 32: 22,100-23,200 -> 27,200-27,400 texts/s. A
 * batch of 1000 on one worker: main thread 9.5 -> 2.4 ms but worker 7.8 -> 15.9 ms a batch, so the
 * worker, the bottleneck for large batches, would take on the main thread's share
 * (docs/performance.md).
 */
const DETECT_IN_WORKERS_MAX = 32

export function textOperation<
  R,
  Body extends TObject = typeof SingleTextBody,
  Reply extends TSchema = TSchema,
  BatchReply extends TSchema = TSchema
> (fastify: FastifyInstance, spec: TextOperation<R, Body, Reply, BatchReply>): void {
  const { config } = fastify

  const checkLimits = (name: string, t: unknown) => {
    if (typeof t === 'string' && t.length > config.textMaxChars) throw new Errors.TextTooLong(name, config.textMaxChars)
  }

  // language routing (spec.detect): the models, the languages they serve, each text's language
  const names = [...(spec.preferred ?? []), spec.model, ...(spec.models ?? [])]
  const models = () => names.map(m => fastify.models.get(m))
  // the models are loaded once, before the first request: their languages are read once too
  let served: readonly string[] | undefined
  const supported = () => spec.languages ?? (served ??= languagesServed(models()))
  const routedLangs = async (texts: string[], lc: unknown): Promise<TextLang[]> => {
    const ok = supported() ?? []
    const langs = await languagesOf(texts, lc, fastify.models.get(DETECTOR), ok)
    // a given lang_code was checked in preValidation; a detected one the op does not serve reads as English
    return langs
  }
  // detection and prediction in one message to a text worker, when the workers can (looked up once)
  let detecting: ReturnType<typeof fastify.models.detectingRunner> | null = null
  // a preferred model that is not installed is left out, so that the workers may still run the rest
  const installed = () => names.filter(n => n === spec.model || fastify.models.get(n) !== undefined)
  const runner = () => (detecting ??= fastify.models.detectingRunner(installed()))
  const detectingRunner = () => (spec.predictsTexts === true ? runner() : undefined)
  const replySchema = (batch: boolean) =>
    spec.detect === true
      ? withLangFields(batch ? spec.batchReply : spec.reply, batch)
      : batch
        ? spec.batchReply
        : spec.reply

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
      schema: {
        summary: spec.summary + (batch ? ' (a batch of texts)' : ''),
        ...(spec.detect
          ? {
              description: `Languages (lang_code): ${(supported() ?? []).join(', ')}. Omitted or "auto": each text's language is detected (English when too short to tell); see docs/languages.md.`
            }
          : {}),
        tags: ['text'],
        consumes: ['application/x-www-form-urlencoded', 'multipart/form-data', 'application/json'],
        body: batch ? (spec.body?.batch ?? BatchTextBody) : (spec.body?.single ?? SingleTextBody),
        response: { 200: replySchema(batch), ...errorResponses(...TEXT_ERRORS) }
      },
      // before validation the body holds whatever fields the client sent
      preValidation: async (req: FastifyRequest) => {
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
          spec.detect !== undefined && spec.detect !== false
        )
      },
      handler: async (req, reply) =>
        withinDeadline(req, async () => {
          // validated against the spec's body schema: a type parameter here, which the route's types
          // cannot follow, so the body is typed as its Static (with one text, or a list on the batch path)
          const body = req.body as TextFields<Body> & TextBody
          const model = fastify.needModel<string, unknown>(spec.model, spec.op)
          const texts = typeof body.text === 'string' ? [body.text] : body.text
          let langs: TextLang[] | undefined
          let results: R[]
          const inWorkers =
            spec.detect !== undefined &&
            spec.detect !== false &&
            texts.length <= DETECT_IN_WORKERS_MAX &&
            wantsDetection(body.lang_code)
              ? detectingRunner()
              : undefined
          if (inWorkers !== undefined) {
            ;({ langs, results } = await detectedAndRun(
              spec,
              inWorkers,
              texts,
              body,
              supported() ?? [],
              lang => modelFor(lang, models()) ?? model
            ))
          } else if (spec.detect !== undefined && spec.detect !== false) {
            langs = await routedLangs(texts, body.lang_code)
            results = await runByLanguage(texts, langs, (ts, lang) =>
              spec.run(ts, { ...body, lang_code: lang }, forLanguage(modelFor(lang, models()) ?? model, lang))
            )
          } else results = await spec.run(texts, body, model)
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
