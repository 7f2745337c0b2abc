// Language identification with fastText's pretrained lid.176 model, whose weights ship inside the npm
// package fasttext.wasm.js (model CC BY-SA 3.0, wrapper MIT). The model runs on the main thread: one
// text takes about 10 µs, less than a round trip to a worker.
import type { LoadedModel, ModelLoader } from '../models.js'
import { LANGUAGE_NAMES, LID_ALIASES } from './languages.js'

export interface Detection {
  /** ISO 639-1 code */
  code: string
  /** the language's English name */
  name: string
  prob: number
}

/** What a text is routed by when its language cannot be told (too short, or no language is likely). */
export const DEFAULT_LANG = 'en'
/** A text needs this many letters and this probability before its detected language is used. */
export const MIN_LETTERS = 10
export const MIN_PROB = 0.5

interface LidVector { size (): number, get (i: number): [number, string], delete?: () => void }
interface FastTextModel { predict (text: string, k: number, threshold: number): LidVector }

const TOP_K = 8

/** The most likely language among LANGUAGE_NAMES (an unlikely language gets probability 0). */
export function detectWith (model: FastTextModel, text: string): Detection {
  // fastText reads a line: newlines end it, so they become spaces
  const v = model.predict(text.replace(/\s+/g, ' ').trim(), TOP_K, 0)
  try {
    for (let i = 0; i < v.size(); i++) {
      const [prob, label] = v.get(i)
      const raw = label.replace('__label__', '')
      const code = LID_ALIASES[raw] ?? raw
      const name = LANGUAGE_NAMES[code]
      if (name !== undefined) return { code, name, prob: Math.min(1, prob) }
    }
  } finally { v.delete?.() }
  return { code: DEFAULT_LANG, name: LANGUAGE_NAMES[DEFAULT_LANG] as string, prob: 0 }
}

const LETTER = /\p{L}/gu
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u

/** Whether a detection is sure enough to route a text by: enough letters (ideographs count
 * three) and a likely language. Otherwise the text goes to DEFAULT_LANG. */
export function confident (text: string, d: Detection): boolean {
  const letters = (text.match(LETTER) ?? []).length * (WIDE.test(text) ? 3 : 1)
  return letters >= MIN_LETTERS && d.prob >= MIN_PROB
}

export const loadLanguageId: ModelLoader = async (_dir, manifest) => {
  // the package's own lid.176.ftz, read from its folder
  const { getLIDModel } = await import('fasttext.wasm.js') as unknown as { getLIDModel: () => Promise<{ load: () => Promise<FastTextModel> }> }
  const lid = await getLIDModel()
  const model = await lid.load()
  const out: LoadedModel<string, Detection> = {
    manifest,
    predict: async (texts) => texts.map((t) => detectWith(model, t)),
    dispose () {}
  }
  return out
}
