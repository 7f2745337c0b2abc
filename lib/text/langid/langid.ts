// Language identification with fastText's pretrained lid.176 model, whose weights ship inside the npm
// package fasttext.wasm.js (model CC BY-SA 3.0, wrapper MIT). One text takes about 10 µs. It runs on
// the main thread for language_detection (less than a round trip to a worker), and in each text
// worker too, where a text whose language is to be detected before a classifier runs is detected and
// classified in one message (lib/text/pool/pool.ts runRouted). Two small classifiers trained here
// (training/recipes/language_detection.ts) refine its answer: when it answers Danish or Norwegian, one
// chooses between the two; when it is unsure, answers English, or reads a text too short to tell, for
// a text in Latin letters, the other (trained on short subtitle lines and tweets) reads it among the
// languages the text operations serve, romanised Hindi included (which lid.176 reads as English).
import { join } from 'node:path'
import type { LoadedModel, ModelLoader } from '../../serving/loaded-model.js'
import { loadTextClassifier } from '../bag/classifier.js'
import { mapInTurns } from '../../runtime/deadline.js'
import { LANGUAGE_NAMES, LID_ALIASES, writtenIn } from './languages.js'

export interface Detection {
  /** ISO 639-1 code */
  code: string
  /** the language's English name */
  name: string
  prob: number
  /** the likely languages among LANGUAGE_NAMES, best first (the first is this one) */
  alternatives: Array<{ code: string; prob: number }>
  /** lid.176's detection, when the Latin-letter refiner answered another language: an operation that
   * does not serve the refiner's answer routes by it, as before the refiner */
  unrefined?: Detection
}

/** What a text is routed by when its language cannot be told (too short, or no language is likely). */
export const DEFAULT_LANG = 'en'
/** Routing thresholds, chosen on validation rows (UMSAB, XED, TweetEval English; docs/languages.md):
 * a text needs MIN_LETTERS letters; its top language is used at MIN_PROB or more, else the likeliest
 * language the operation serves (or English) at MIN_ALT or more, else English. */
export const MIN_LETTERS = 6
export const MIN_PROB = 0.5
export const MIN_ALT = 0.2

interface LidVector {
  size(): number
  get(i: number): [number, string]
  delete?: () => void
}
interface FastTextModel {
  predict(text: string, k: number, threshold: number): LidVector
}

const TOP_K = 8
/** Languages under 1% are not listed: none of them is ever routed to (MIN_ALT) or the best, and
 * fastText's search prunes them, which halves the cost of a call (13 to 8 us for a short text). */
const MIN_LISTED = 0.01
/** the languages the refiner decides between, in its label order */
export const REFINED = ['da', 'no'] as const
/** the Latin-letter refiner's labels, in its label order ('other': any other language in Latin
 * letters), and its folder in the model's version folder */
export const LATIN = ['en', 'hi', 'es', 'de', 'fr', 'it', 'pt', 'nl', 'other'] as const
export const LATIN_DIR = 'latin'
/** the refiner's probability of es, de, fr, it, pt or nl needed to answer it, chosen on validation
 * rows (XED and UMSAB validation lines, TweetEval English tweets, ud-sentences; docs/languages.md) */
export const LATIN_MIN = 0.7
/** the refiner's probability of hi needed to answer Hindi (chosen on validation rows in a scratch run:
 * at 0.5, 0.2% more of the English validation tweets were answered Hindi) */
export const ROMANISED_MIN = 0.8
/** the words a text needs before the refiner may answer Hindi: a few English words ("I love it") are
 * as common in Hindi-English tweets as in English ones, and such texts stay as they were */
export const ROMANISED_MIN_WORDS = 4
const WORD = /\p{L}+/gu
/** lid.176 this sure of English: the refiner is not asked (it costs about 0.05 ms a text) */
export const LATIN_SKIP = 0.95
const LATIN_LETTER = /\p{Script=Latin}/u

/** Whether the Latin-letter refiner reads a text: in Latin letters, and lid.176 answered no language
 * surely, or English under LATIN_SKIP, or the text has under MIN_LETTERS letters. */
export function asksLatin (text: string, d: Detection): boolean {
  if (!LATIN_LETTER.test(text)) return false
  return d.prob < MIN_PROB || (d.code === DEFAULT_LANG && d.prob < LATIN_SKIP) || !hasAtLeast(LETTER, text, MIN_LETTERS)
}

/** The refiner's language when it is sure enough (es, de, fr, it, pt, nl at LATIN_MIN; hi at
 * ROMANISED_MIN in a text of ROMANISED_MIN_WORDS words or more), with its probability and lid.176's
 * detection kept as `unrefined`; the detection as it was otherwise (en and other change nothing). */
export function latinRefined (text: string, d: Detection, p: number[]): Detection {
  let k = 0
  for (let i = 1; i < p.length; i++) if ((p[i] as number) > (p[k] as number)) k = i
  const code = LATIN[k] as string
  const prob = p[k] as number
  if (code === DEFAULT_LANG || code === 'other') return d
  if (code === 'hi' ? prob < ROMANISED_MIN || !hasAtLeast(WORD, text, ROMANISED_MIN_WORDS) : prob < LATIN_MIN) return d
  return {
    code,
    name: LANGUAGE_NAMES[code] as string,
    prob,
    alternatives: [
      { code, prob },
      ...d.alternatives.filter(a => a.code !== code).map(a => ({ code: a.code, prob: a.prob * (1 - prob) }))
    ],
    unrefined: d
  }
}

// a text's language is read from its first characters: fastText's cost grows with the length, its
// answer on a long text hardly does (100 texts of 7,000 characters: about 200 ms in all, read whole)
export const DETECT_CHARS = 2_000

/**
 * The most likely language among LANGUAGE_NAMES written in the text's letters (an unlikely language gets
 * probability 0).
 */
export function detectWith (model: FastTextModel, whole: string): Detection {
  // not between the two halves of a surrogate pair
  const cut = /[\uD800-\uDBFF]/.test(whole.charAt(DETECT_CHARS - 1)) ? DETECT_CHARS - 1 : DETECT_CHARS
  const text = whole.length > DETECT_CHARS ? whole.slice(0, cut) : whole
  // fastText reads a line: newlines end it, so they become spaces
  const v = model.predict(text.replace(/\s+/g, ' ').trim(), TOP_K, MIN_LISTED)
  const alternatives: Detection['alternatives'] = []
  try {
    for (let i = 0; i < v.size(); i++) {
      const [prob, label] = v.get(i)
      const raw = label.replace('__label__', '')
      const code = LID_ALIASES[raw] ?? raw
      if (LANGUAGE_NAMES[code] !== undefined && writtenIn(code, text) && !alternatives.some(a => a.code === code)) {
        alternatives.push({ code, prob: Math.min(1, prob) })
      }
    }
  } finally {
    v.delete?.()
  }
  const best = alternatives[0] ?? { code: DEFAULT_LANG, prob: 0 }
  return { code: best.code, name: LANGUAGE_NAMES[best.code] as string, prob: best.prob, alternatives }
}

const LETTER = /\p{L}/gu
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u

/** The language a text is routed by, given the languages an operation serves: the detected one when
 * the detector is sure enough (see MIN_LETTERS, MIN_PROB, MIN_ALT; an ideograph counts three letters)
 * and the operation serves it; DEFAULT_LANG, not sure, otherwise (SPEC section 8: a text is never
 * refused for its detected language). */
export function routeLanguage (text: string, d: Detection, served: readonly string[]): { code: string; sure: boolean } {
  const r = detectedRoute(text, d, served)
  return served.length === 0 || served.includes(r.code) ? r : { code: DEFAULT_LANG, sure: false }
}

function detectedRoute (text: string, d: Detection, served: readonly string[]): { code: string; sure: boolean } {
  // the Latin-letter refiner read the text, however short: its answer, or lid.176's where the operation does not
  // serve it
  if (d.unrefined !== undefined) {
    return served.includes(d.code) ? { code: d.code, sure: true } : detectedRoute(text, d.unrefined, served)
  }
  if (!hasAtLeast(LETTER, text, Math.ceil(MIN_LETTERS / (WIDE.test(text) ? 3 : 1)))) {
    return { code: DEFAULT_LANG, sure: false }
  }
  if (d.prob >= MIN_PROB) return { code: d.code, sure: true }
  const alt = d.alternatives.find(a => a.code === DEFAULT_LANG || served.includes(a.code))
  return alt !== undefined && alt.prob >= MIN_ALT ? { code: alt.code, sure: true } : { code: DEFAULT_LANG, sure: false }
}

/** Whether the text has at least n matches of a global pattern (letters, words; counted until there are n). */
function hasAtLeast (pattern: RegExp, text: string, n: number): boolean {
  pattern.lastIndex = 0
  for (let found = 0; found < n; found++) if (pattern.exec(text) === null) return false
  return true
}

/** Replaces a da or no answer by the refiner's choice; P = P(da or no) from lid.176 x the refiner's. */
function refine (d: Detection, p: number[]): Detection {
  const both = d.alternatives
    .filter(a => (REFINED as readonly string[]).includes(a.code))
    .reduce((x, a) => x + a.prob, 0)
  const k = (p[1] as number) > (p[0] as number) ? 1 : 0
  const code = REFINED[k] as string
  const prob = Math.min(1, both * (p[k] as number))
  return {
    code,
    name: LANGUAGE_NAMES[code] as string,
    prob,
    alternatives: [{ code, prob }, ...d.alternatives.filter(a => a.code !== code)]
  }
}

// a large batch hands the event loop back after this many characters (other requests go on, and a
// request past its deadline stops here: lib/runtime/deadline.ts)
const YIELD_CHARS = 50_000

async function detectAll (model: FastTextModel, texts: string[]): Promise<Detection[]> {
  return await mapInTurns(
    texts,
    t => t.length,
    YIELD_CHARS,
    t => detectWith(model, t)
  )
}

export const loadLanguageId: ModelLoader = async (dir, manifest, tf, ctx) => {
  // the package's own lid.176.ftz, read from its folder
  const { getLIDModel } = (await import('fasttext.wasm.js')) as unknown as {
    getLIDModel: () => Promise<{ load: () => Promise<FastTextModel> }>
  }
  const lid = await getLIDModel()
  const model = await lid.load()
  const refiner = manifest.files.includes('model.json')
    ? ((await loadTextClassifier(dir, { ...manifest, labels: [...REFINED] }, tf, ctx)) as LoadedModel<string, number[]>)
    : undefined
  const latin = manifest.files.includes(`${LATIN_DIR}/model.json`)
    ? ((await loadTextClassifier(join(dir, LATIN_DIR), { ...manifest, labels: [...LATIN] }, tf, ctx)) as LoadedModel<
        string,
        number[]
      >)
    : undefined
  const detect = async (texts: string[], askLatin: boolean): Promise<Detection[]> => {
    const found = await detectAll(model, texts)
    const asked =
      latin === undefined || !askLatin ? [] : found.flatMap((d, i) => (asksLatin(texts[i] as string, d) ? [i] : []))
    if (latin !== undefined && asked.length > 0) {
      const p = await latin.predict(asked.map(i => texts[i] as string))
      asked.forEach((i, k) => {
        found[i] = latinRefined(texts[i] as string, found[i] as Detection, p[k] as number[])
      })
    }
    const which = found.flatMap((d, i) => ((REFINED as readonly string[]).includes(d.code) ? [i] : []))
    if (refiner === undefined || which.length === 0) return found
    const p = await refiner.predict(which.map(i => texts[i] as string))
    which.forEach((i, k) => {
      found[i] = refine(found[i] as Detection, p[k] as number[])
    })
    return found
  }
  const out: LanguageId = {
    manifest,
    predict: async texts => await detect(texts, true),
    detectFor: async (texts, served) =>
      await detect(
        texts,
        served.some(c => c !== DEFAULT_LANG && (LATIN as readonly string[]).includes(c))
      ),
    dispose () {
      refiner?.dispose()
      latin?.dispose()
    }
  }
  return out
}

/** The loaded identifier: detectFor skips the Latin-letter refiner for an operation that serves none of
 * its languages but English, which routeLanguage would route by lid.176's own answer anyway (the
 * refiner costs about 0.05 ms a text: the NER load-test text, 9 words that lid.176 is 0.84 sure are
 * English, paid it). */
export interface LanguageId extends LoadedModel<string, Detection> {
  detectFor: (texts: string[], served: readonly string[]) => Promise<Detection[]>
}

/** Each text's detection as an operation serving `served` routes by it (routeLanguage): the same
 * route as predict's, with no work an operation's route cannot use. */
export async function detectFor (
  detector: LoadedModel<string, Detection>,
  texts: string[],
  served: readonly string[]
): Promise<Detection[]> {
  const id = detector as Partial<LanguageId>
  return id.detectFor === undefined ? await detector.predict(texts) : await id.detectFor(texts, served)
}
