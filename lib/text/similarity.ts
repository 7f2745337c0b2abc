// The serving side of the sentence-pair model (manifest kind similarity-pairs): pair features
// computed in JavaScript (lib/text/similarity-features.ts, the same code training used) feed a
// TF.js dense ensemble whose sigmoid output is the similarity in [0, 1]. A batch of pairs runs as
// one tensor batch.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Tensor } from '@tensorflow/tfjs'
import type { LoadedModel, ModelLoader } from '../models.js'
import { fileIO } from '../tf-io.js'
import { CHAR_BUCKETS, FEATURES, WORD_BUCKETS, decodeVectors, pairFeatures, tfidfCosine, type IdfTable, type WordVectors } from './similarity-features.js'

export interface SimilarityInput { a: string, b: string, lang: string }

interface FeatureFile { features: string[], mean: number[], std: number[], idfLanguages: string[], words: number, dim: number }

export interface SimilarityTables { idf: Map<string, IdfTable>, vectors: WordVectors, cfg: FeatureFile }

/** The lookup tables of a model version folder: IDF per language and the quantised word vectors. */
export async function loadTables (dir: string): Promise<SimilarityTables> {
  const cfg = JSON.parse(await readFile(join(dir, 'features.json'), 'utf8')) as FeatureFile
  if (cfg.features.join() !== FEATURES.join()) throw new Error('features.json was written for other features than lib/text/similarity-features.ts computes; retrain')
  const idfBin = await readFile(join(dir, 'idf.bin'))
  const per = WORD_BUCKETS + CHAR_BUCKETS
  if (idfBin.length !== per * cfg.idfLanguages.length) throw new Error(`idf.bin: expected ${per * cfg.idfLanguages.length} bytes, found ${idfBin.length}`)
  const idf = new Map(cfg.idfLanguages.map((l, i) => [l, {
    words: idfBin.subarray(i * per, i * per + WORD_BUCKETS),
    chars: idfBin.subarray(i * per + WORD_BUCKETS, (i + 1) * per)
  }]))
  const bin = await readFile(join(dir, 'vectors.bin'))
  if (bin.length !== cfg.words * (4 + cfg.dim)) throw new Error(`vectors.bin: expected ${cfg.words * (4 + cfg.dim)} bytes, found ${bin.length}`)
  const vectors = decodeVectors(await readFile(join(dir, 'words.txt'), 'utf8'), bin, cfg.dim)
  return { idf, vectors, cfg }
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
    const rows = pairs.map((p) => pairFeatures(p.a, p.b, p.lang, tablesFor(tables, p.lang), tables.vectors).map((v, k) => (v - mean[k]!) / std[k]!))
    const y = tf.tidy(() => model.predict(tf.tensor2d(rows, [rows.length, FEATURES.length])) as Tensor)
    const out = Array.from(await y.data())
    y.dispose()
    return out.map((s) => Math.min(1, Math.max(0, s)))
  }
  const loaded: LoadedModel<SimilarityInput, number> = {
    manifest,
    predict,
    async warm () { await predict([{ a: 'a model warms up', b: 'the model is warming up', lang: manifest.languages[0] ?? 'en' }]) },
    dispose: () => { model.dispose() }
  }
  return loaded
}
