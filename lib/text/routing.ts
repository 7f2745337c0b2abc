// The one router of a text operation's texts by language, run where its models are: in a text worker
// (lib/text/pool/worker.ts) for the models the workers hold, on the main thread (lib/serving/registry.ts)
// otherwise. Each text's language is the lang_code sent, or the one detected (lib/text/langid/langid.ts
// routeLanguage: English when unsure or not served); each language's texts go to the first model that serves
// it, and their scores come back calibrated for that language when the model's manifest says how.
import type { LoadedModel } from '../serving/loaded-model.js'
import { DEFAULT_LANG, detectFor, routeLanguage, type Detection } from './langid/langid.js'
import { languageCalibrationOf, languageTemperature, recalibrateLanguage } from './calibration.js'

/** the model folder of the language identifier */
export const DETECTOR = 'language_detection'

export type LangSource = 'given' | 'detected' | 'default'
export interface TextLang {
  code: string
  source: LangSource
}

/** What a routed run is asked: the operation's models (the first serves any language the others do not), the
 * languages it serves, and the given language of each text (undefined: detect it). */
export interface RouteAsk {
  models: readonly string[]
  served: readonly string[]
  langs?: readonly TextLang[]
  /** the index in `models` of the model for a language none of them lists (default 0) */
  fallback?: number
  /** the models read {text, lang} rather than the text alone (NER, keyphrases) */
  withLang?: boolean
}

/** One text's answer: its language, the index in `models` of the model that ran it, and that model's output. */
export type Routed = [lang: TextLang, model: number, output: unknown]

/** Whether a lang_code value asks for detection. */
export const wantsDetection = (lc: unknown): boolean => lc === undefined || lc === 'auto'

/** Each text's language among `served`: the given one, or detected (English without a detector). */
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
    return { code: r.code, source: r.sure ? 'detected' : 'default' }
  })
}

/** Each text's language (ask.langs, or detected), then each language's texts through its model. */
export async function route (
  texts: string[],
  ask: RouteAsk,
  modelOf: (name: string) => LoadedModel<any, any> | undefined,
  detector: LoadedModel<string, Detection> | undefined
): Promise<Routed[]> {
  const langs = ask.langs ?? (await languagesOf(texts, undefined, detector, ask.served))
  const models = ask.models.map(modelOf)
  const out = new Array<Routed>(texts.length)
  await Promise.all(
    [...byLanguage(langs)].map(async ([code, idx]) => {
      const serving = models.findIndex(m => m?.manifest.languages.includes(code))
      const k = serving >= 0 ? serving : (ask.fallback ?? 0)
      const model = models[k]
      if (model === undefined) throw new Error(`no model ${ask.models[k]} here`)
      const some = idx.length === texts.length ? texts : idx.map(i => texts[i] as string)
      const inputs = ask.withLang === true ? some.map(text => ({ text, lang: code })) : some
      const outputs = calibratedFor(await model.predict(inputs), model, code)
      idx.forEach((i, j) => {
        out[i] = [langs[i] as TextLang, k, outputs[j]]
      })
    })
  )
  return out
}

/** The places of each language's texts, in order of first appearance. */
function byLanguage (langs: readonly TextLang[]): Map<string, number[]> {
  const groups = new Map<string, number[]>()
  langs.forEach((l, i) => {
    const g = groups.get(l.code)
    if (g === undefined) groups.set(l.code, [i])
    else g.push(i)
  })
  return groups
}

/** A model's outputs for texts of one language, recalibrated by that language's temperature when its manifest has
 * one (lib/text/calibration.ts); any other output as it is. */
export function calibratedFor (outputs: unknown[], model: LoadedModel<any, any>, lang: string): unknown[] {
  const params = languageCalibrationOf(model.manifest)
  if (languageTemperature(params, lang) === 1) return outputs
  return recalibrateLanguage(outputs as number[][], lang, params)
}

/** Every language a list of models serves, in their order, without repeats. */
export function languagesServed (models: Array<LoadedModel<any, any> | undefined>): string[] | undefined {
  const present = models.filter(m => m !== undefined)
  if (present.length === 0) return undefined
  return [...new Set(present.flatMap(m => m.manifest.languages))]
}
