// Calibration by input: a text classifier's scores, already calibrated by one temperature baked
// into its weights, are softened or sharpened once more by a temperature that depends on what the
// service can see of the text itself: how many tokens it has and what share of its words the shared
// word-vector table knows. One temperature cannot suit a 500-word article and a 6-word headline
// alike: the mean of many features is a surer guess than the mean of a few. A model that reads a long
// text in parts (lib/text/cnn/parts.ts) averages its parts' logits, which softens them when the parts
// disagree: the number of parts is one more thing T(x) reads. Parameters live in the model's manifest
// (calibration.byInput), fitted by `npm run train -- calibrate <model>`.
import type { ModelManifest } from '../../schemas/model-manifest.js'
import { tokens, type FeatureConfig } from './bag/features.js'
import { vectorWords, type WordVectors } from './words/vectors.js'

export interface InputCalibration {
  method: string
  /** T(x) = exp(a + b * (log(1 + tokens) - tokensCentre) + c * (known - knownCentre) + g * log(parts)) */
  a: number
  b: number
  c: number
  /** a model that reads a long text in parts: how T(x) follows log(parts) (0 for a text of one part); absent: 0 */
  g?: number
  tokensCentre: number
  knownCentre: number
  /** added to each label's logit after the division by T(x) */
  bias: number[]
  /** independent scores only: every label's logit is shifted by e + f * (log(1 + tokens) - tokensCentre) as well */
  e?: number
  f?: number
  /** which rows fitted it, and how */
  fitted?: string
}

/** What the calibration reads of a text: log(1 + its feature tokens), the share of its words with a
 * word vector (0 with none), and for a model that reads a long text in parts, log(its parts) (0: one). */
export interface InputShape {
  logTokens: number
  known: number
  logParts?: number
}

/** The shape of a text, read in `parts` parts (lib/text/cnn/parts.ts; 1: read whole). */
export function inputShape (text: string, cfg: FeatureConfig, vectors?: WordVectors, parts = 1): InputShape {
  const logTokens = Math.log1p(tokens(text, cfg.maxChars).length)
  let known = 0
  if (vectors !== undefined) {
    const words = vectorWords(text, cfg.maxChars)
    let hits = 0
    for (const w of words) if (vectors.row(w) >= 0) hits++
    known = words.length === 0 ? 0 : hits / words.length
  }
  return parts > 1 ? { logTokens, known, logParts: Math.log(parts) } : { logTokens, known }
}

/** log T(x) */
export function logTemperature (p: InputCalibration, x: InputShape): number {
  return p.a + p.b * (x.logTokens - p.tokensCentre) + p.c * (x.known - p.knownCentre) + (p.g ?? 0) * (x.logParts ?? 0)
}

// float32 probabilities back to logits: 0 and 1 are clamped (their logits would be infinite)
const TINY = 1e-30
const EDGE = 1e-7

/**
 * Logits of a row of scores: log p for a softmax (logits up to a constant, which a softmax
 * ignores), log(p / (1 - p)) for independent sigmoid scores.
 */
export function toLogits (p: readonly number[], multiLabel: boolean): number[] {
  if (multiLabel) {
    return p.map(x => {
      const q = Math.min(1 - EDGE, Math.max(EDGE, x))
      return Math.log(q / (1 - q))
    })
  }
  return p.map(x => Math.log(Math.max(TINY, x)))
}

export function activate (z: readonly number[], multiLabel: boolean): number[] {
  if (multiLabel) return z.map(x => 1 / (1 + Math.exp(-x)))
  let m = -Infinity
  for (const x of z) if (x > m) m = x
  const e = z.map(x => Math.exp(x - m))
  const s = e.reduce((a, b) => a + b, 0)
  return e.map(x => x / s)
}

/** One text's scores recalibrated: activate(logits / T(x) + bias + shift(x)). */
export function recalibrate (
  p: readonly number[],
  x: InputShape,
  params: InputCalibration,
  multiLabel: boolean
): number[] {
  const inv = Math.exp(-logTemperature(params, x))
  const shift = multiLabel ? (params.e ?? 0) + (params.f ?? 0) * (x.logTokens - params.tokensCentre) : 0
  return activate(
    toLogits(p, multiLabel).map((z, c) => z * inv + (params.bias[c] ?? 0) + shift),
    multiLabel
  )
}

type WithCalibration = ModelManifest & {
  calibration?: { byInput?: InputCalibration; byLanguage?: LanguageCalibration } & Record<string, unknown>
}

/** The manifest's calibration by input, if it has one. */
export function inputCalibrationOf (manifest: ModelManifest): InputCalibration | undefined {
  return (manifest as WithCalibration).calibration?.byInput
}

/** The manifest without its calibration by input: the model's scores as the weights alone give them. */
export function withoutInputCalibration (manifest: ModelManifest): ModelManifest {
  const m = manifest as WithCalibration
  if (m.calibration?.byInput === undefined) return manifest
  const { byInput: _, ...rest } = m.calibration
  return { ...m, calibration: rest } as ModelManifest
}

/**
 * Calibration by language, for a model that serves several languages: one temperature per language,
 * on top of the one folded into its weights. The route knows each text's language (lang_code, or the
 * one detected), and one temperature cannot suit a language the model knows well and one whose answers
 * are near chance. Fitted by `npm run train -- calibrate <model>` on the calibration half of each
 * language's validation rows; a language without one keeps the scores as they are. A temperature
 * changes no text's top label.
 */
export interface LanguageCalibration {
  method: string
  /** T per lang_code: scores become activate(logits / T) */
  temperature: Record<string, number>
  /** independent sigmoid scores (true) or a softmax (false) */
  multiLabel: boolean
  /** which rows fitted it, and how */
  fitted?: string
}

/** The manifest's calibration by language, if it has one. */
export function languageCalibrationOf (manifest: ModelManifest): LanguageCalibration | undefined {
  return (manifest as WithCalibration).calibration?.byLanguage
}

/** The temperature a language's scores are divided by (1: none). */
export function languageTemperature (params: LanguageCalibration | undefined, lang: string): number {
  return params !== undefined && Object.hasOwn(params.temperature, lang) ? (params.temperature[lang] as number) : 1
}

/**
 * Why a calibration by language cannot serve a model (every temperature a finite positive number, the kind of
 * scores the model's), or undefined when it can.
 */
export function languageCalibrationProblem (params: LanguageCalibration, multiLabel: boolean): string | undefined {
  const bad = Object.entries(params.temperature).find(([, T]) => typeof T !== 'number' || !Number.isFinite(T) || T <= 0)
  if (bad !== undefined) return `the calibration by language has temperature ${String(bad[1])} for ${bad[0]}`
  if (params.multiLabel !== multiLabel) {
    return `the calibration by language is for ${params.multiLabel ? 'independent' : 'softmax'} scores`
  }
  return undefined
}

/** Rows of scores of texts in one language, recalibrated by its temperature. */
export function recalibrateLanguage (
  rows: readonly (readonly number[])[],
  lang: string,
  params: LanguageCalibration | undefined
): number[][] {
  const T = languageTemperature(params, lang)
  if (T === 1 || params === undefined) return rows.map(p => [...p])
  return rows.map(p =>
    activate(
      toLogits(p, params.multiLabel).map(z => z / T),
      params.multiLabel
    )
  )
}
