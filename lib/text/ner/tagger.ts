// The serving side of the NER tagger (manifest kind ner-tagger): per language, a [buckets, labels]
// emission table (a TF.js weight, stored uint8-quantised), a transition matrix and, for some
// languages, a word lexicon (training/trainers/ner-lexicon.ts) and German's noun forms, all read from the
// TF.js weights manifest. A batch's tokens are featurised in TypeScript, each token's label scores
// are the sum of its features' rows of the uint8 table (scaled once), and each text is decoded with
// Viterbi; entity confidence is the mean forward-backward probability of its tokens' labels, and
// entities below their type's validation-fitted threshold are left out. Spans carry UTF-16 offsets
// into the caller's own text, so text.slice(start, end) === name. lib/text/ner/weights.ts reads the stored
// weights.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LoadedModel, ModelLoader } from '../../serving/loaded-model.js'
import { FEATURES, featurise, tokenize, type Token } from './features.js'
import { CATEGORY, NUM_LABELS, TYPES, isBegin, typeOf } from './labels.js'
import { Scratch, marginals, viterbi } from './decode.js'
import { modelFile, readLanguage, storedWeights, type Language } from './weights.js'
import { readFileShared, shared, type SharedArray } from '../pool/shared-memory.js'

/**
 * Texts are read up to this many UTF-16 code units (about 3,500 tokens of news text): enough for
 * any article-length input, and it bounds the work a single 100 kB text can cause.
 */
export const MAX_CHARS = 20_000
// featurising and decoding are plain TypeScript: a large batch (up to the 8 MB body limit) hands
// the event loop back every this many tokens (some 10-20 ms of work) so other requests keep moving
const YIELD_TOKENS = 8192
const yieldLoop = () => new Promise<void>(resolve => setImmediate(resolve))

export interface NerInput {
  text: string
  lang?: string
}
export interface Entity {
  name: string
  category: string
  confidence_score: number
  start: number
  end: number
}

/**
 * Emission weights to uint8 with one scale, 0 exactly representable (the most common value). The
 * scale comes from the `quantile` of the non-zero magnitudes rather than the largest one, so a few
 * outlying weights (clipped) do not round the many small ones to zero.
 */
export function quantise (
  w: Float32Array,
  quantile = 1
): { bytes: Uint8Array; scale: number; min: number; dequantised: Float32Array } {
  const mags = Float32Array.from(
    w.filter(x => x !== 0),
    Math.abs
  ).sort()
  const max =
    mags.length === 0 ? 0 : (mags[Math.min(mags.length - 1, Math.floor(quantile * (mags.length - 1)))] as number)
  const scale = max === 0 ? 1 : max / 127
  const min = -128 * scale
  const bytes = new Uint8Array(w.length)
  const dequantised = new Float32Array(w.length)
  for (let i = 0; i < w.length; i++) {
    const q = Math.max(0, Math.min(255, Math.round(((w[i] as number) - min) / scale)))
    bytes[i] = q
    dequantised[i] = q * scale + min
  }
  return { bytes, scale, min, dequantised }
}

/** The weights file, read once per process for every text worker (lib/text/pool/shared-memory.ts). */
export async function shareNer (dir: string): Promise<Record<string, SharedArray>> {
  return { weights: await readFileShared(join(dir, (await modelFile(dir)).weights)) }
}

/**
 * Label scores [tokens, labels] of the concatenated feature ids of many texts: per token, the sum
 * of its FEATURES rows of quantised weights, then scale * sum + FEATURES * min (every row's
 * dequantised value is q * scale + min). Hands the event loop back every YIELD_TOKENS tokens.
 */
async function scores (model: Language, ids: Int32Array, n: number): Promise<Float32Array> {
  const out = new Float32Array(n * NUM_LABELS)
  const acc = new Uint32Array(NUM_LABELS)
  const table = model.emissions
  const offset = FEATURES * model.min
  for (let t = 0; t < n; t++) {
    acc.fill(0)
    for (let f = 0; f < FEATURES; f++) {
      const row = (ids[t * FEATURES + f] as number) * NUM_LABELS
      for (let y = 0; y < NUM_LABELS; y++) acc[y]! += table[row + y] as number
    }
    for (let y = 0; y < NUM_LABELS; y++) out[t * NUM_LABELS + y] = (acc[y] as number) * model.scale + offset
    if ((t + 1) % YIELD_TOKENS === 0) await yieldLoop()
  }
  return out
}

/** what decoding reads of a tagger: its transitions, temperature and thresholds by type */
export type Decoding = Pick<Language, 'transitions' | 'temperature' | 'minConfidence'>

/**
 * The entities of one text, whose tokens' label scores are the rows of E from `at`: the Viterbi
 * labels' spans, each with the mean marginal probability of its labels as its confidence.
 */
export function decode (
  text: string,
  toks: Token[],
  E: Float32Array,
  at: number,
  model: Decoding,
  scratch: Scratch
): Entity[] {
  const { transitions, temperature, minConfidence } = model
  const n = toks.length
  const labels = viterbi(E, transitions, n, new Uint8Array(n), scratch, at * NUM_LABELS)
  const p = marginals(E, transitions, n, labels, temperature, scratch, at * NUM_LABELS)
  const out: Entity[] = []
  for (let t = 0; t < n;) {
    const y = labels[t] as number
    if (y === 0) {
      t++
      continue
    }
    const type = typeOf(y)
    let end = t + 1
    while (
      end < n &&
      (labels[end] as number) !== 0 &&
      !isBegin(labels[end] as number) &&
      typeOf(labels[end] as number) === type
    ) {
      end++
    }
    const category = CATEGORY[TYPES[type] as string]
    let conf = 0
    for (let k = t; k < end; k++) conf += p[k] as number
    conf /= end - t
    // below its type's threshold (fitted on validation data) an entity is more often wrong than right
    if (category !== undefined && conf >= (minConfidence[type] ?? 0)) {
      const start = (toks[t] as Token).start
      const stop = (toks[end - 1] as Token).end
      out.push({
        name: text.slice(start, stop),
        category,
        confidence_score: Math.min(1, Math.max(0, conf)),
        start,
        end: stop
      })
    }
    t = end
  }
  return out
}

export const loadNer: ModelLoader = async (dir, manifest) => {
  const { specs, meta, weights } = await modelFile(dir)
  if (meta.features !== FEATURES || meta.labels.length !== NUM_LABELS) {
    throw new Error('ner model.json does not match lib/text/ner/features.ts and ner-labels.ts')
  }
  const data = await shared(dir, 'weights', Uint8Array, async () => {
    const b = await readFile(join(dir, weights))
    return new Uint8Array(b.buffer, b.byteOffset, b.length)
  })
  const stored = storedWeights(specs, data)
  const langs = new Map(meta.languages.map(lang => [lang, readLanguage(lang, stored, meta)]))
  const fallback = langs.has('en') ? 'en' : (meta.languages[0] as string)
  const maxChars = meta.maxChars ?? MAX_CHARS
  // decoding a text is synchronous, so concurrent predictions can share these buffers
  const scratch = new Scratch()

  async function predict (inputs: Array<NerInput | string>): Promise<Entity[][]> {
    const items = inputs.map(x =>
      typeof x === 'string'
        ? { text: x, lang: fallback }
        : { text: x.text, lang: x.lang !== undefined && langs.has(x.lang) ? x.lang : fallback }
    )
    const results: Entity[][] = new Array(items.length)
    for (const [lang, model] of langs) {
      const mine = items.map((x, i) => ({ ...x, i })).filter(x => x.lang === lang)
      if (mine.length === 0) continue
      const toks = mine.map(x => tokenize(x.text, maxChars, lang))
      const n = toks.reduce((a, t) => a + t.length, 0)
      const ids = new Int32Array(n * FEATURES)
      let at = 0
      let sinceYield = 0
      for (const t of toks) {
        ids.set(
          featurise(
            t.map(k => k.text),
            meta.buckets,
            model.lexicon,
            model.nouns
          ),
          at * FEATURES
        )
        at += t.length
        if ((sinceYield += t.length) > YIELD_TOKENS) {
          sinceYield = 0
          await yieldLoop()
        }
      }
      const E = await scores(model, ids, n)
      at = 0
      for (const [j, x] of mine.entries()) {
        const t = toks[j] as Token[]
        results[x.i] = decode(x.text, t, E, at, model, scratch)
        at += t.length
        if ((sinceYield += t.length) > YIELD_TOKENS) {
          sinceYield = 0
          await yieldLoop()
        }
      }
    }
    return results
  }

  const loaded: LoadedModel<NerInput, Entity[]> = {
    manifest,
    predict,
    async warm () {
      await predict(meta.languages.map(lang => ({ text: 'Angela Merkel visited Paris.', lang })))
    },
    dispose () {
      langs.clear()
    }
  }
  return loaded
}
