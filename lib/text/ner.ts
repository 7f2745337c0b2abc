// The serving side of the NER tagger (manifest kind ner-tagger): per language, a [buckets, labels]
// emission table (a TF.js weight tensor, stored uint8-quantised), a transition matrix and, for some
// languages, a word lexicon (training/ner-lexicon.ts). A batch's tokens are featurised in
// TypeScript, their label scores computed with one TF.js gather-sum per chunk of tokens, and each
// text decoded with Viterbi; entity confidence is the mean forward-backward probability of its
// tokens' labels, and entities below their type's validation-fitted threshold are left out. Spans
// carry UTF-16 offsets into the caller's own text, so text.slice(start, end) === name.
import { join } from 'node:path'
import type { Tensor2D } from '@tensorflow/tfjs'
import type { LoadedModel, ModelLoader } from '../models.js'
import { fileIO } from '../tf-io.js'
import { CATEGORY, FEATURES, NUM_LABELS, NounForms, TYPES, featurise, isBegin, tokenize, typeOf, type Token } from './ner-features.js'
import { Scratch, marginals, viterbi } from './ner-decode.js'

/**
 * Texts are read up to this many UTF-16 code units (about 3,500 tokens of news text): enough for
 * any article-length input, and it bounds the work a single 100 kB text can cause.
 */
export const MAX_CHARS = 20_000
// tokens per gather-sum: bounds the [tokens, features, labels] activation to 4096 x 42 x 9 floats
// (6.2 MB) and lets other requests run between chunks
const CHUNK = 4096

// featurising and decoding are plain TypeScript: a large batch (up to the 8 MB body limit) hands
// the event loop back every this many tokens (some 10-20 ms of work) so other requests keep moving
const YIELD_TOKENS = 8192
const yieldLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

export interface NerInput { text: string, lang?: string }
export interface Entity { name: string, category: string, confidence_score: number, start: number, end: number }

interface Meta { buckets: number, features: number, labels: string[], languages: string[], maxChars: number, temperature?: Record<string, number>, minConfidence?: Record<string, number[]> }

/**
 * Emission weights to uint8 with one scale, 0 exactly representable (the most common value). The
 * scale comes from the `quantile` of the non-zero magnitudes rather than the largest one, so a few
 * outlying weights (clipped) do not round the many small ones to zero.
 */
export function quantise (w: Float32Array, quantile = 1): { bytes: Uint8Array, scale: number, min: number, dequantised: Float32Array } {
  const mags = Float32Array.from(w.filter((x) => x !== 0), Math.abs).sort()
  const max = mags.length === 0 ? 0 : mags[Math.min(mags.length - 1, Math.floor(quantile * (mags.length - 1)))] as number
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

export const loadNer: ModelLoader = async (dir, manifest, tf) => {
  const artifacts = await fileIO(join(dir, 'model.json')).load!()
  const meta = artifacts.userDefinedMetadata as unknown as Meta
  if (meta.features !== FEATURES || meta.labels.length !== NUM_LABELS) throw new Error('ner model.json does not match lib/text/ner-features.ts')
  const named = tf.io.decodeWeights(artifacts.weightData as ArrayBuffer, artifacts.weightSpecs ?? [])
  const langs = new Map<string, { emissions: Tensor2D, transitions: Float32Array, lexicon?: Uint8Array, nouns?: NounForms, temperature: number, minConfidence: number[] }>()
  for (const lang of meta.languages) {
    const e = named[`${lang}/emissions`]; const t = named[`${lang}/transitions`]
    if (e === undefined || t === undefined) throw new Error(`ner model.json lacks weights for ${lang}`)
    const lx = named[`${lang}/lexicon`]
    const lexicon = lx === undefined ? undefined : Uint8Array.from(lx.dataSync())
    lx?.dispose()
    // German: the hashes of its common nouns' forms (training/ner-lexicon.ts germanNouns), int32 bits
    const nx = named[`${lang}/nouns`]
    const nouns = nx === undefined ? undefined : new NounForms(new Uint32Array(Int32Array.from(nx.dataSync()).buffer))
    nx?.dispose()
    langs.set(lang, { emissions: e as Tensor2D, transitions: new Float32Array(t.dataSync()), ...(lexicon !== undefined ? { lexicon } : {}), ...(nouns !== undefined ? { nouns } : {}), temperature: meta.temperature?.[lang] ?? 1, minConfidence: meta.minConfidence?.[lang] ?? [0, 0, 0] })
    t.dispose()
  }
  const fallback = langs.has('en') ? 'en' : meta.languages[0] as string
  const maxChars = meta.maxChars ?? MAX_CHARS

  /** label scores [tokens, labels] of the concatenated feature ids of many texts */
  async function scores (emissions: Tensor2D, ids: Int32Array, n: number): Promise<Float32Array> {
    const out = new Float32Array(n * NUM_LABELS)
    for (let from = 0; from < n; from += CHUNK) {
      const m = Math.min(CHUNK, n - from)
      const y = tf.tidy(() => {
        const idx = tf.tensor1d(ids.subarray(from * FEATURES, (from + m) * FEATURES), 'int32')
        return tf.gather(emissions, idx).reshape([m, FEATURES, NUM_LABELS]).sum(1)
      })
      out.set(await y.data() as Float32Array, from * NUM_LABELS)
      y.dispose()
    }
    return out
  }

  // decoding a text is synchronous, so concurrent predictions can share these buffers
  const scratch = new Scratch()
  function decode (text: string, toks: Token[], E: Float32Array, at: number, transitions: Float32Array, temperature: number, minConfidence: number[]): Entity[] {
    const n = toks.length
    const labels = viterbi(E, transitions, n, new Uint8Array(n), scratch, at * NUM_LABELS)
    const p = marginals(E, transitions, n, labels, temperature, scratch, at * NUM_LABELS)
    const out: Entity[] = []
    for (let t = 0; t < n;) {
      const y = labels[t] as number
      if (y === 0) { t++; continue }
      const type = typeOf(y)
      let end = t + 1
      while (end < n && (labels[end] as number) !== 0 && !isBegin(labels[end] as number) && typeOf(labels[end] as number) === type) end++
      const category = CATEGORY[TYPES[type] as string]
      let conf = 0
      for (let k = t; k < end; k++) conf += p[k] as number
      conf /= end - t
      // below its type's threshold (fitted on validation data) an entity is more often wrong than right
      if (category !== undefined && conf >= (minConfidence[type] ?? 0)) {
        const start = (toks[t] as Token).start; const stop = (toks[end - 1] as Token).end
        out.push({ name: text.slice(start, stop), category, confidence_score: Math.min(1, Math.max(0, conf)), start, end: stop })
      }
      t = end
    }
    return out
  }

  async function predict (inputs: Array<NerInput | string>): Promise<Entity[][]> {
    const items = inputs.map((x) => (typeof x === 'string' ? { text: x, lang: fallback } : { text: x.text, lang: x.lang !== undefined && langs.has(x.lang) ? x.lang : fallback }))
    const results: Entity[][] = new Array(items.length)
    for (const [lang, model] of langs) {
      const mine = items.map((x, i) => ({ ...x, i })).filter((x) => x.lang === lang)
      if (mine.length === 0) continue
      const toks = mine.map((x) => tokenize(x.text, maxChars, lang))
      const n = toks.reduce((a, t) => a + t.length, 0)
      const ids = new Int32Array(n * FEATURES)
      let at = 0
      let sinceYield = 0
      for (const t of toks) {
        ids.set(featurise(t.map((k) => k.text), meta.buckets, model.lexicon, model.nouns), at * FEATURES)
        at += t.length
        if ((sinceYield += t.length) > YIELD_TOKENS) { sinceYield = 0; await yieldLoop() }
      }
      const E = await scores(model.emissions, ids, n)
      at = 0
      for (const [j, x] of mine.entries()) {
        const t = toks[j] as Token[]
        results[x.i] = decode(x.text, t, E, at, model.transitions, model.temperature, model.minConfidence)
        at += t.length
        if ((sinceYield += t.length) > YIELD_TOKENS) { sinceYield = 0; await yieldLoop() }
      }
    }
    return results
  }

  const loaded: LoadedModel<NerInput, Entity[]> = {
    manifest,
    predict,
    async warm () { await predict(meta.languages.map((lang) => ({ text: 'Angela Merkel visited Paris.', lang }))) },
    dispose () { for (const m of langs.values()) m.emissions.dispose() }
  }
  return loaded
}
