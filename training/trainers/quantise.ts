// Stores a saved model's embedding table as float16 (TF.js dequantises it on load): half the bytes
// on disk and in git, and a precision (3 significant digits) far finer than the SGD noise in it.
import { readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'

interface Spec {
  name: string
  shape: number[]
  dtype: string
  quantization?: { dtype: string }
}

export async function quantiseEmbedding (modelJson: string, layer: string): Promise<void> {
  const json = JSON.parse(await readFile(modelJson, 'utf8')) as {
    weightsManifest: Array<{ paths: string[]; weights: Spec[] }>
  }
  const group = json.weightsManifest[0]!
  if (group.paths.length !== 1) throw new Error('one weights file expected')
  const file = join(dirname(modelJson), group.paths[0]!)
  const buf = await readFile(file)
  const parts: Buffer[] = []
  let at = 0
  for (const w of group.weights) {
    if (w.dtype !== 'float32' || w.quantization !== undefined) throw new Error(`${w.name}: float32 weights expected`)
    const n = w.shape.reduce((a, b) => a * b, 1)
    const bytes = buf.subarray(at, at + 4 * n)
    at += 4 * n
    if (!w.name.startsWith(`${layer}/`)) {
      parts.push(bytes)
      continue
    }
    const f = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
    const h = new Uint16Array(n)
    for (let i = 0; i < n; i++) h[i] = toHalf(f[i] as number)
    parts.push(Buffer.from(h.buffer))
    w.quantization = { dtype: 'float16' }
  }
  if (at !== buf.length) throw new Error(`${file}: ${buf.length} bytes, the manifest names ${at}`)
  await writeFile(file, Buffer.concat(parts))
  await writeFile(modelJson, JSON.stringify(json))
}

const f32 = new Float32Array(1)
const u32 = new Uint32Array(f32.buffer)
/** IEEE 754 half precision, rounded to nearest */
function toHalf (x: number): number {
  f32[0] = x
  const b = u32[0] as number
  const sign = (b >>> 16) & 0x8000
  const exp = ((b >>> 23) & 0xff) - 127 + 15
  const mant = b & 0x7fffff
  if (exp <= 0) {
    if (exp < -10) return sign
    const m = (mant | 0x800000) >>> (1 - exp)
    return sign | ((m + 0x1000) >>> 13)
  }
  if (exp >= 31) return sign | 0x7c00
  return sign | ((exp << 10) + ((mant + 0x1000) >>> 13))
}
