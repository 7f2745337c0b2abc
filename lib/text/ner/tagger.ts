// The serving side of the NER tagger (manifest kind ner-tagger): per language, a [buckets, labels]
// emission table (a TF.js weight, stored uint8-quantised), a transition matrix and, for some
// languages, a word lexicon (training/trainers/ner-lexicon.ts) and German's noun forms, all read from the
// TF.js weights manifest. A batch's tokens are featurised in TypeScript, each token's label scores
// are the sum of its features' rows of the uint8 table (scaled once), and each text is decoded with
// Viterbi; entity confidence is the mean forward-backward probability of its tokens' labels, and
// entities below their type's validation-fitted threshold are left out. Spans carry UTF-16 offsets
// into the caller's own text, so text.slice(start, end) === name.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { io } from '@tensorflow/tfjs'
import type { LoadedModel, ModelLoader } from '../../serving/models.js'
import { FEATURES, NAME_KINDS, NounForms, featurise, tokenize, type Token } from './features.js'
import { CATEGORY, NUM_LABELS, TYPES, isBegin, typeOf } from './labels.js'
import { Scratch, marginals, viterbi } from './decode.js'
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

interface Meta {
  buckets: number
  features: number
  labels: string[]
  languages: string[]
  maxChars: number
  temperature?: Record<string, number>
  minConfidence?: Record<string, number[]>
  /** languages whose word list is looked up lower-cased (NounForms.caseless) */ caseless?: string[]
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

type StoredWeights = Map<string, { spec: io.WeightsManifestEntry; bytes: Uint8Array }>

/** bytes per stored element of a weight, by its quantisation or else its dtype */
function storedBytes (spec: io.WeightsManifestEntry): number {
  const q = spec.quantization?.dtype
  if (q !== undefined) return q === 'uint8' ? 1 : 2
  return spec.dtype === 'bool' ? 1 : 4
}

/**
 * The stored bytes of each weight of a TF.js weights manifest, by name, as TF.js lays them out (one
 * after another, in the manifest's order): views of the one weights file, which every text worker
 * reads from the process's shared copy. The emission tables stay uint8 here: decoding them into
 * float32 tensors (tf.io.decodeWeights) would take 4 times the memory, and the wasm backend's gather
 * over them was 4.7 times slower than the sum below (318 against 68 ms per 10,000 tokens of 42
 * features x 17 labels, measured).
 */
function storedWeights (specs: io.WeightsManifestEntry[], data: Uint8Array): StoredWeights {
  const out: StoredWeights = new Map()
  let at = 0
  for (const spec of specs) {
    const size = spec.shape.reduce((a, b) => a * b, 1) * storedBytes(spec)
    if (at + size > data.length) throw new Error(`ner weights.bin is shorter than its manifest (${spec.name})`)
    out.set(spec.name, { spec, bytes: data.subarray(at, at + size) })
    at += size
  }
  return out
}

/** bytes read as 4-byte values: a view where they are aligned, else a copy of their own */
const aligned4 = (b: Uint8Array): Uint8Array => (b.byteOffset % 4 === 0 ? b : b.slice())

interface ModelFile {
  specs: io.WeightsManifestEntry[]
  meta: Meta
  weights: string
}

/** model.json: its weights manifest (one weights file), and the tagger's settings */
async function modelFile (dir: string): Promise<ModelFile> {
  const json = JSON.parse(await readFile(join(dir, 'model.json'), 'utf8')) as {
    weightsManifest?: io.WeightsManifestConfig
    userDefinedMetadata?: unknown
  }
  const groups = json.weightsManifest ?? []
  const paths = groups.flatMap(g => g.paths)
  if (paths.length !== 1) throw new Error(`ner model.json must name one weights file, not ${paths.length}`)
  return { specs: groups.flatMap(g => g.weights), meta: json.userDefinedMetadata as Meta, weights: paths[0] as string }
}

/** The weights file, read once per process for every text worker (lib/text/pool/shared-memory.ts). */
export async function shareNer (dir: string): Promise<Record<string, SharedArray>> {
  return { weights: await readFileShared(join(dir, (await modelFile(dir)).weights)) }
}

interface Language {
  emissions: Uint8Array
  scale: number
  min: number
  transitions: Float32Array
  lexicon?: Uint8Array
  nouns?: NounForms
  temperature: number
  minConfidence: number[]
}

/** One language's tables from the stored weights, each checked to have the form the tagger reads. */
function readLanguage (lang: string, stored: StoredWeights, meta: Meta): Language {
  const e = stored.get(`${lang}/emissions`)
  const t = stored.get(`${lang}/transitions`)
  if (e === undefined || t === undefined) throw new Error(`ner model.json lacks weights for ${lang}`)
  const q = e.spec.quantization
  if (
    q?.dtype !== 'uint8' ||
    q.scale === undefined ||
    q.min === undefined ||
    e.spec.shape[0] !== meta.buckets ||
    e.spec.shape[1] !== NUM_LABELS
  ) {
    throw new Error(`ner ${lang}/emissions must be a uint8-quantised [${meta.buckets}, ${NUM_LABELS}] table`)
  }
  if (
    t.spec.dtype !== 'float32' ||
    t.spec.quantization !== undefined ||
    t.bytes.length !== (NUM_LABELS + 1) * NUM_LABELS * 4
  ) {
    throw new Error(`ner ${lang}/transitions must be float32 [${NUM_LABELS + 1}, ${NUM_LABELS}]`)
  }
  // the lexicon: one type byte per hashed word, stored as uint8 with scale 1 and min 0
  const lx = stored.get(`${lang}/lexicon`)
  if (
    lx !== undefined &&
    (lx.spec.quantization?.dtype !== 'uint8' || lx.spec.quantization.scale !== 1 || lx.spec.quantization.min !== 0)
  ) {
    throw new Error(`ner ${lang}/lexicon must be uint8 with scale 1 and min 0`)
  }
  // German: the hashes of its common nouns' forms (training/trainers/ner-lexicon.ts germanNouns), int32 bits
  const hashes = (name: string): Uint32Array | undefined => {
    const x = stored.get(`${lang}/${name}`)
    if (x === undefined) return undefined
    if (x.spec.dtype !== 'int32' || x.spec.quantization !== undefined) {
      throw new Error(`ner ${lang}/${name} must be int32`)
    }
    const b = aligned4(x.bytes)
    return new Uint32Array(b.buffer, b.byteOffset, b.length / 4)
  }
  const nounHashes = hashes('nouns')
  // and the name lists' (training/trainers/ner-lexicon.ts nameLists): all three or none
  const lists = NAME_KINDS.map(k => hashes(`names-${k}`))
  if (lists.some(l => l !== undefined) && (nounHashes === undefined || lists.some(l => l === undefined))) {
    throw new Error(`ner ${lang}: the name lists need the noun forms and one another`)
  }
  const names =
    lists[0] !== undefined
      ? { first: lists[0], last: lists[1] as Uint32Array, place: lists[2] as Uint32Array }
      : undefined
  const tb = aligned4(t.bytes)
  return {
    emissions: e.bytes,
    scale: q.scale,
    min: q.min,
    transitions: new Float32Array(tb.buffer, tb.byteOffset, tb.length / 4),
    ...(lx !== undefined ? { lexicon: lx.bytes } : {}),
    ...(nounHashes !== undefined
      ? { nouns: new NounForms(nounHashes, names, meta.caseless?.includes(lang) === true) }
      : {}),
    temperature: meta.temperature?.[lang] ?? 1,
    minConfidence: meta.minConfidence?.[lang] ?? [0, 0, 0]
  }
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
