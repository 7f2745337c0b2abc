// The stored weights of the NER tagger (lib/text/ner/tagger.ts): model.json (its TF.js weights manifest and
// the tagger's settings), the bytes of each weight in the one weights file, and each language's tables read
// from them, checked to have the form the tagger reads.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { io } from '@tensorflow/tfjs'
import { NAME_KINDS, NounForms } from './features.js'
import { NUM_LABELS } from './labels.js'

export interface Meta {
  buckets: number
  features: number
  labels: string[]
  languages: string[]
  maxChars: number
  temperature?: Record<string, number>
  minConfidence?: Record<string, number[]>
  /** languages whose word list is looked up lower-cased (NounForms.caseless) */ caseless?: string[]
}

export type StoredWeights = Map<string, { spec: io.WeightsManifestEntry; bytes: Uint8Array }>

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
export function storedWeights (specs: io.WeightsManifestEntry[], data: Uint8Array): StoredWeights {
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

export interface ModelFile {
  specs: io.WeightsManifestEntry[]
  meta: Meta
  weights: string
}

/** model.json: its weights manifest (one weights file), and the tagger's settings */
export async function modelFile (dir: string): Promise<ModelFile> {
  const json = JSON.parse(await readFile(join(dir, 'model.json'), 'utf8')) as {
    weightsManifest?: io.WeightsManifestConfig
    userDefinedMetadata?: unknown
  }
  const groups = json.weightsManifest ?? []
  const paths = groups.flatMap(g => g.paths)
  if (paths.length !== 1) throw new Error(`ner model.json must name one weights file, not ${paths.length}`)
  return { specs: groups.flatMap(g => g.weights), meta: json.userDefinedMetadata as Meta, weights: paths[0] as string }
}

export interface Language {
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
export function readLanguage (lang: string, stored: StoredWeights, meta: Meta): Language {
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
