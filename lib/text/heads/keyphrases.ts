// The loader of kind encoder-keyphrases, EmbedRank style: a text's candidate phrases come from the
// stopword ranker (lib/text/keywords/stopwords.ts, noun-phrase patterns with each language's word
// classes), and are ranked by the cosine of their encoder vector to the text's, blended with the
// stopword ranker's own order, each next phrase marked down by its likeness to those already chosen
// (maximal marginal relevance). The settings are the manifest's (docs/models/keywords-multilingual.md).
import { mapInTurns } from '../../runtime/deadline.js'
import type { LoadedModel, LoaderContext } from '../../serving/loaded-model.js'
import type { ModelManifest } from '../../../schemas/model-manifest.js'
import type { Keyword, KeywordInput } from '../keywords/ranker.js'
import { MAX_CHARS } from '../keywords/candidates.js'
import { stopwordKeyphrases, wordClasses } from '../keywords/stopwords.js'
import { encoderOf } from './classifier.js'
import { cosine } from './similarity.js'

// candidates are found on the main thread: a large batch hands the event loop back after this many
// characters (other requests go on, and a request past its deadline stops here: lib/runtime/deadline.ts)
const YIELD_CHARS = 50_000

/**
 * manifest.keyphrases: how many candidates a text gets; the weight of the cosine to the text against
 * the stopword ranker's own order (both z-scored); how much likeness to a chosen phrase costs
 */
export interface KeyphraseSettings {
  candidates: number
  top: number
  relevance: number
  redundancy: number
}

const zScores = (xs: number[]): number[] => {
  const mean = xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length)
  const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, xs.length)) || 1
  return xs.map(x => (x - mean) / sd)
}

/**
 * The chosen phrases' indexes and values, best first. `phrases` come in the stopword ranker's order;
 * a phrase's value is its blend of z-scored cosine to the text and z-scored place, less redundancy
 * times its likeness to the closest phrase already chosen.
 */
export function rankByRelevance (
  text: Float32Array,
  phrases: Float32Array[],
  s: KeyphraseSettings
): Array<[number, number]> {
  const cos = zScores(phrases.map(p => cosine(p, text)))
  const place = zScores(phrases.map((_, i) => -i))
  const z = cos.map((c, i) => s.relevance * c + (1 - s.relevance) * (place[i] as number))
  const chosen: Array<[number, number]> = []
  const left = new Set(phrases.map((_, i) => i))
  while (chosen.length < s.top && left.size > 0) {
    let best = -1
    let value = -Infinity
    for (const i of left) {
      let like = 0
      for (const [j] of chosen) like = Math.max(like, cosine(phrases[i] as Float32Array, phrases[j] as Float32Array))
      const v = (z[i] as number) - s.redundancy * like
      if (v > value) {
        value = v
        best = i
      }
    }
    chosen.push([best, value])
    left.delete(best)
  }
  return chosen
}

export async function loadEncoderKeyphrases (
  dir: string,
  manifest: ModelManifest,
  _tf: unknown,
  ctx: LoaderContext
): Promise<LoadedModel<KeywordInput, Keyword[]>> {
  const encoder = await encoderOf(dir, manifest, ctx)
  const settings = (manifest as ModelManifest & { keyphrases: KeyphraseSettings }).keyphrases
  const classes = await wordClasses(dir)
  const candidatesOf = async (inputs: KeywordInput[]): Promise<Keyword[][]> => {
    const cost = ({ text }: KeywordInput) => Math.min(text.length, MAX_CHARS)
    const find = ({ text, lang }: KeywordInput) =>
      stopwordKeyphrases(text, lang, settings.candidates, classes.get(lang))
    return await mapInTurns(inputs, cost, YIELD_CHARS, find)
  }
  const ranked = async (text: string, candidates: Keyword[]): Promise<Keyword[]> => {
    if (candidates.length === 0) return []
    const [whole, ...phrases] = await encoder.embed([text, ...candidates.map(c => c.keyword)])
    let shown = 1
    return rankByRelevance(whole as Float32Array, phrases, settings).map(([i, value]) => {
      // a logistic of the value, never above the phrase before it
      shown = Math.min(shown, Number((1 / (1 + Math.exp(-value))).toFixed(4)))
      return { keyword: (candidates[i] as Keyword).keyword, confidence_score: shown }
    })
  }
  const predict = async (inputs: KeywordInput[]): Promise<Keyword[][]> => {
    const candidates = await candidatesOf(inputs)
    return await Promise.all(inputs.map((input, i) => ranked(input.text, candidates[i] as Keyword[])))
  }
  return {
    manifest,
    predict,
    async warm () {
      await predict([{ text: 'La dinámica de Langevin compleja evita el problema del signo.', lang: 'es' }])
    },
    dispose () {}
  }
}
