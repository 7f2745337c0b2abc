// Pooling, as sentence-transformers does it: the mean of the token states under the attention
// mask, then scaled to unit length, so that a dot product of two vectors is their cosine.
import type { TokenBatch } from './tokenizer.js'

/** One unit vector per row of the batch, from its token states ([rows, width, dims], row-major). */
export function meanPool (states: Float32Array, batch: TokenBatch, dims: number): Float32Array[] {
  const out: Float32Array[] = []
  for (let i = 0; i < batch.rows; i++) {
    const v = new Float32Array(dims)
    let n = 0
    for (let j = 0; j < batch.width; j++) {
      if (batch.mask[i * batch.width + j] === 0n) continue
      n++
      const at = (i * batch.width + j) * dims
      for (let d = 0; d < dims; d++) v[d] = (v[d] as number) + (states[at + d] as number)
    }
    out.push(unit(v, Math.max(n, 1)))
  }
  return out
}

/** v divided by n, then scaled to unit length (a zero vector stays zero). */
function unit (v: Float32Array, n: number): Float32Array {
  let sq = 0
  for (let d = 0; d < v.length; d++) {
    const x = (v[d] as number) / n
    v[d] = x
    sq += x * x
  }
  const norm = Math.sqrt(sq)
  if (norm === 0) return v
  for (let d = 0; d < v.length; d++) v[d] = (v[d] as number) / norm
  return v
}
