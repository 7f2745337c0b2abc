// The text operation route: one code path for an operation's single and _batch paths (a single text is a batch
// of one), its texts checked before validation and, when it routes by language, each text run by the model that
// serves its language. It answers 405 with `Allow: POST` to other methods.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Static, TObject, TSchema } from '@sinclair/typebox'
import { Errors } from '../errors.js'
import { batchTexts, type Fields } from '../fields.js'
import type { LoadedModel } from '../serving/loaded-model.js'
import { BatchTextBody, SingleTextBody, TEXT_ERRORS, errorResponses } from '../../schemas/common.js'
import type { Routed } from '../text/pool/protocol.js'
import type { ModelRegistry } from '../serving/registry.js'
import {
  DETECTOR,
  calibratedFor,
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
  /** the results from the probability rows a model's predict gives (run is then predict and this, as classify
   * is): a text whose language is to be detected crosses to a text worker once, which detects and predicts
   * (lib/text/pool/pool.ts runDetected), and its rows come back to this */
  fromRows?: (rows: number[][], model: LoadedModel<any, any>) => R[]
  single: (r: R) => Static<Reply>
  many?: (rs: R[]) => Static<BatchReply>
}

/**
 * The languages routed by (as routedLangs routes them) and each text's results, detected and predicted in a
 * text worker (`run`); the rows, calibrated for their language, become results by spec.fromRows.
 */
async function detectedAndRun<R, Body extends TObject> (
  fromRows: NonNullable<TextOperation<R, Body, any, any>['fromRows']>,
  run: DetectingRunner,
  texts: string[],
  ok: readonly string[],
  modelOf: (lang: string) => LoadedModel<any, any>
): Promise<{ langs: TextLang[]; results: R[] }> {
  const routed = await run(texts, ok)
  const langs = routed.map(([code, sure]): TextLang => ({ code, source: sure ? 'detected' : 'default' }))
  const results = await runByLanguage(texts, langs, async (_ts, lang, idx) => {
    const rows = idx.map(i => (routed[i] as Routed)[2] as number[])
    const model = modelOf(lang)
    return fromRows(calibratedFor(rows, model, lang), model)
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

/**
 * A text operation's language routing (spec.detect): the models, the languages they serve, each text's language,
 * and the runner that detects and predicts in one message to a text worker.
 */
function languageRouting<R, Body extends TObject> (
  fastify: FastifyInstance,
  spec: TextOperation<R, Body, any, any>
) {
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
  const detectingRunner = () => (spec.fromRows !== undefined ? runner() : undefined)
  return { models, supported, routedLangs, detectingRunner }
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
      spec.detect !== undefined && spec.detect !== false
    )
  }
}

/**
 * Each text's result, and when the operation routes by language, the languages routed by: detected and predicted
 * in a text worker for small requests whose workers can, or else routed here and run by each language's model.
 */
async function textResults<R, Body extends TObject> (
  spec: TextOperation<R, Body, any, any>,
  routing: LanguageRouting,
  texts: string[],
  body: TextFields<Body> & TextBody,
  model: LoadedModel<any, any>
): Promise<{ langs: TextLang[] | undefined; results: R[] }> {
  const { models, supported, routedLangs, detectingRunner } = routing
  let langs: TextLang[] | undefined
  let results: R[]
  const inWorkers =
    spec.detect !== undefined &&
    spec.detect !== false &&
    texts.length <= DETECT_IN_WORKERS_MAX &&
    wantsDetection(body.lang_code)
      ? detectingRunner()
      : undefined
  if (inWorkers !== undefined && spec.fromRows !== undefined) {
    ;({ langs, results } = await detectedAndRun(
      spec.fromRows,
      inWorkers,
      texts,
      supported() ?? [],
      lang => modelFor(lang, models()) ?? model
    ))
  } else if (spec.detect !== undefined && spec.detect !== false) {
    langs = await routedLangs(texts, body.lang_code)
    results = await runByLanguage(texts, langs, (ts, lang) =>
      spec.run(ts, { ...body, lang_code: lang }, forLanguage(modelFor(lang, models()) ?? model, lang))
    )
  } else results = await spec.run(texts, body, model)
  return { langs, results }
}

export function textOperation<
  R,
  Body extends TObject = typeof SingleTextBody,
  Reply extends TSchema = TSchema,
  BatchReply extends TSchema = TSchema
> (fastify: FastifyInstance, spec: TextOperation<R, Body, Reply, BatchReply>): void {
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
          const model = fastify.needModel<string, unknown>(spec.model, spec.op)
          const texts = typeof body.text === 'string' ? [body.text] : body.text
          const { langs, results } = await textResults(spec, routing, texts, body, model)
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
