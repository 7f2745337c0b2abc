// The serving side of the sentence-pair model (manifest kind similarity-pairs): pair features
// computed in JavaScript (lib/text/similarity-features.ts, the same code training used) feed a
// TF.js dense ensemble whose sigmoid output is the similarity in [0, 1]. A batch of pairs runs as
// one tensor batch.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Tensor } from '@tensorflow/tfjs'
import type { LoadedModel, ModelLoader } from '../models.js'
import { fileIO } from '../tf-io.js'
import { CHAR_BUCKETS, FEATURES, WORD_BUCKETS, pairFeatures, tfidfCosine, type IdfTable } from './similarity-features.js'
import { decodeRows, vectorWordList, type WordVectors } from './similarity-vectors.js'
import { shared, type SharedArray } from './shared-memory.js'
import { folderWordIndex, shareWordIndex } from './word-index.js'
import { SIF_FEATURES, sifFeatures } from './similarity-sif.js'
import { loadSharedVectors, type WordVectors as SharedVectors } from './word-vectors.js'

export interface SimilarityInput { a: string, b: string, lang: string }

/**
 * `sif`: the SIF features (lib/text/similarity-sif.ts) follow the others, from the shared word
 * vectors in `sif.wordVectors` (a folder of the model store, e.g. "word-vectors/1") with the
 * common component `sif.pc` removed. `sif.combine`: in its languages (those of the vectors) the
 * served similarity is the noisy-OR of the network's and the SIF cosine's (combineSif).
 */
interface FeatureFile { features: string[], mean: number[], std: number[], idfLanguages: string[], words: number, dim: number, sif?: { wordVectors: string, pc: number[], combine?: { weight: number, languages: string[] } } }

/**
 * Two estimates of one similarity, either of which may see it: the network's (lexical overlap,
 * alignment; it learned from STS Benchmark that pairs with no shared content word are seldom
 * alike) and the SIF sentence vectors' (word meaning: a kitten on a rug is a cat on a mat).
 * Noisy-OR: 1 - (1 - net) (1 - weight * max(0, sif)); weight 0 is the network alone.
 */
export const combineSif = (net: number, sif: number, weight: number): number => 1 - (1 - net) * (1 - weight * Math.max(0, Math.min(1, sif)))

export interface SimilarityTables { idf: Map<string, IdfTable>, vectors: WordVectors, cfg: FeatureFile, shared?: SharedVectors }

/** the feature names a features.json promises, in vector order */
export const featureNames = (cfg: { sif?: unknown }): string[] => [...FEATURES, ...(cfg.sif !== undefined ? SIF_FEATURES : [])]

/** every feature of a pair, in featureNames order */
export function allFeatures (t: SimilarityTables, a: string, b: string, lang: string): number[] {
  const f = pairFeatures(a, b, lang, tablesFor(t, lang), t.vectors)
  return t.shared !== undefined && t.cfg.sif !== undefined ? [...f, ...sifFeatures(a, b, t.shared, t.cfg.sif.pc)] : f
}

/** The lookup tables of a model version folder: IDF per language and the quantised word vectors. */
export async function loadTables (dir: string): Promise<SimilarityTables> {
  const cfg = await featureFile(dir)
  const idfBin = await shared(dir, 'idf', Uint8Array, () => readIdf(dir, cfg))
  const idf = new Map(cfg.idfLanguages.map((l, i) => [l, {
    words: idfBin.subarray(i * IDF_BYTES, i * IDF_BYTES + WORD_BUCKETS),
    chars: idfBin.subarray(i * IDF_BYTES + WORD_BUCKETS, (i + 1) * IDF_BYTES)
  }]))
  let words: string[] | undefined
  const wordList = async () => (words ??= await readWords(dir))
  const index = await folderWordIndex(dir, 'words', wordList)
  const data = await shared(dir, 'vectors', Float32Array, async () => readRows(dir, cfg, (await wordList()).length))
  const vectors: WordVectors = { index, data, dim: cfg.dim }
  const sharedVectors = cfg.sif !== undefined ? await loadSharedVectors(dir, cfg.sif.wordVectors) : undefined
  return { idf, vectors, cfg, ...(sharedVectors !== undefined ? { shared: sharedVectors } : {}) }
}

/** The IDF tables and the decoded word vectors, made once per process for every text worker (lib/text/shared-memory.ts). */
export async function shareSimilarity (dir: string): Promise<Record<string, SharedArray>> {
  const cfg = await featureFile(dir)
  const words = await readWords(dir)
  const idf = await readIdf(dir, cfg)
  const sharedIdf = new Uint8Array(new SharedArrayBuffer(idf.length))
  sharedIdf.set(idf)
  return {
    idf: sharedIdf,
    vectors: await readRows(dir, cfg, words.length, new Float32Array(new SharedArrayBuffer(4 * words.length * cfg.dim))),
    ...shareWordIndex('words', words)
  }
}

const readWords = async (dir: string): Promise<string[]> => vectorWordList(await readFile(join(dir, 'words.txt'), 'utf8'))

const IDF_BYTES = WORD_BUCKETS + CHAR_BUCKETS

async function featureFile (dir: string): Promise<FeatureFile> {
  const cfg = JSON.parse(await readFile(join(dir, 'features.json'), 'utf8')) as FeatureFile
  if (cfg.features.join() !== featureNames(cfg).join()) throw new Error('features.json was written for other features than lib/text/similarity-features.ts computes; retrain')
  return cfg
}

async function readIdf (dir: string, cfg: FeatureFile): Promise<Uint8Array> {
  const idfBin = await readFile(join(dir, 'idf.bin'))
  if (idfBin.length !== IDF_BYTES * cfg.idfLanguages.length) throw new Error(`idf.bin: expected ${IDF_BYTES * cfg.idfLanguages.length} bytes, found ${idfBin.length}`)
  return idfBin
}

async function readRows (dir: string, cfg: FeatureFile, n: number, into?: Float32Array): Promise<Float32Array> {
  const bin = await readFile(join(dir, 'vectors.bin'))
  if (bin.length !== cfg.words * (4 + cfg.dim) || n !== cfg.words) throw new Error(`vectors.bin and words.txt: expected ${cfg.words} words of ${4 + cfg.dim} bytes, found ${n} words and ${bin.length} bytes`)
  return decodeRows(bin, n, cfg.dim, into)
}

function tablesFor (t: SimilarityTables, lang: string): IdfTable {
  const idf = t.idf.get(lang)
  // the route admits only the manifest's languages, so this is a caller's mistake
  if (idf === undefined) throw new Error(`similarity: no tables for language "${lang}"`)
  return idf
}

/** The TF-IDF cosine peer with the model's own IDF tables (eval reports it beside the model). */
export function tfidfPeer (t: SimilarityTables, { a, b, lang }: SimilarityInput): number {
  return tfidfCosine(a, b, tablesFor(t, lang))
}

export const loadSimilarity: ModelLoader = async (dir, manifest, tf) => {
  const tables = await loadTables(dir)
  const { mean, std } = tables.cfg
  const model = await tf.loadLayersModel(fileIO(join(dir, 'model.json')))
  const predict = async (pairs: SimilarityInput[]): Promise<number[]> => {
    if (pairs.length === 0) return []
    const raw = pairs.map((p) => allFeatures(tables, p.a, p.b, p.lang))
    const rows = raw.map((f) => f.map((v, k) => (v - mean[k]!) / std[k]!))
    const y = tf.tidy(() => model.predict(tf.tensor2d(rows, [rows.length, tables.cfg.features.length])) as Tensor)
    const out = Array.from(await y.data())
    y.dispose()
    const combine = tables.cfg.sif?.combine
    const at = tables.cfg.features.indexOf('sif_cos')
    return out.map((s, i) => {
      const net = Math.min(1, Math.max(0, s))
      return combine !== undefined && combine.languages.includes(pairs[i]!.lang) ? combineSif(net, raw[i]![at]!, combine.weight) : net
    })
  }
  const loaded: LoadedModel<SimilarityInput, number> = {
    manifest,
    predict,
    async warm () { await predict([{ a: 'a model warms up', b: 'the model is warming up', lang: manifest.languages[0] ?? 'en' }]) },
    dispose: () => { model.dispose() }
  }
  return loaded
}
