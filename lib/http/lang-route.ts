// Routing a text operation by language: each text's language is the lang_code sent, or, when it is
// omitted or "auto", the language detected (lib/text/langid/langid.ts) when the detector is sure, and English
// otherwise; each language's texts then go to the model that serves it.
import type { FastifyReply } from 'fastify'
import { Type, type TObject, type TSchema } from '@sinclair/typebox'
import type { LoadedModel } from '../serving/loaded-model.js'
import { DEFAULT_LANG, detectFor, routeLanguage, type Detection } from '../text/langid/langid.js'
import { languageCalibrationOf, languageTemperature, recalibrateLanguage } from '../text/calibration.js'

/** the model folder of the language identifier */
export const DETECTOR = 'language_detection'

export type LangSource = 'given' | 'detected' | 'default'
export interface TextLang {
  code: string
  source: LangSource
  /** what the detector said, when it ran */ detected?: Detection
}

/** Whether a lang_code value asks for detection. */
export const wantsDetection = (lc: unknown): boolean => lc === undefined || lc === 'auto'

/** The language each text is routed by, among the languages `served`. Without a detector (none
 * installed) every text is English. */
export async function languagesOf (
  texts: string[],
  given: unknown,
  detector: LoadedModel<string, Detection> | undefined,
  served: readonly string[]
): Promise<TextLang[]> {
  if (!wantsDetection(given)) return texts.map(() => ({ code: given as string, source: 'given' }))
  if (detector === undefined) return texts.map(() => ({ code: DEFAULT_LANG, source: 'default' }))
  const found = await detectFor(detector, texts, served)
  return found.map((d, i) => {
    const r = routeLanguage(texts[i] as string, d, served)
    return { code: r.code, source: r.sure ? 'detected' : 'default', detected: d }
  })
}

/** Runs each language's texts (one call per language; `idx`: their places in `texts`) and puts the
 * results back in input order. */
export async function runByLanguage<R> (
  texts: string[],
  langs: TextLang[],
  run: (texts: string[], lang: string, idx: number[]) => Promise<R[]>
): Promise<R[]> {
  // most calls are in one language: one call, nothing to put back
  const first = langs[0]?.code
  if (first !== undefined && langs.every(l => l.code === first)) {
    return run(
      texts,
      first,
      texts.map((_, i) => i)
    )
  }
  const groups = new Map<string, number[]>()
  langs.forEach((l, i) => {
    const g = groups.get(l.code)
    if (g === undefined) groups.set(l.code, [i])
    else g.push(i)
  })
  const out = new Array<R>(texts.length)
  await Promise.all(
    [...groups].map(async ([lang, idx]) => {
      const rs = await run(
        idx.map(i => texts[i] as string),
        lang,
        idx
      )
      idx.forEach((i, k) => {
        out[i] = rs[k] as R
      })
    })
  )
  return out
}

/** The model folder serving a language: the first of `models` whose manifest lists it. */
export function modelFor (
  lang: string,
  models: Array<LoadedModel<any, any> | undefined>
): LoadedModel<any, any> | undefined {
  return models.find(m => m?.manifest.languages.includes(lang))
}

/** A model's probability rows for texts of one language, with its calibration by language
 * (lib/text/calibration.ts) applied when its manifest has one for that language. */
export function calibratedFor (rows: number[][], model: LoadedModel<any, any>, lang: string): number[][] {
  const params = languageCalibrationOf(model.manifest)
  if (languageTemperature(params, lang) === 1) return rows
  return recalibrateLanguage(rows, lang, params)
}

/**
 * A model as it answers texts of one language: what predict gives, calibratedFor that language; the model
 * itself when its manifest has no calibration for it.
 */
export function forLanguage<In> (model: LoadedModel<In, any>, lang: string): LoadedModel<In, any> {
  if (languageTemperature(languageCalibrationOf(model.manifest), lang) === 1) return model
  return {
    ...model,
    predict: async (inputs: In[]) => calibratedFor((await model.predict(inputs)) as number[][], model, lang)
  }
}

/** Every language a list of models serves, in their order, without repeats. */
export function languagesServed (models: Array<LoadedModel<any, any> | undefined>): string[] | undefined {
  const present = models.filter(m => m !== undefined)
  if (present.length === 0) return undefined
  return [...new Set(present.flatMap(m => m.manifest.languages))]
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
