// The classifiers' embedding tables, decoded once per process into shared memory: the text workers
// each load their models, but read the embedding bag's rows from these tables instead of a copy of
// their own (16 MB for 131,072 x 32 per classifier and worker). Read straight from model.json and
// its weight files, each weight at its offset, and decoded here, not by TensorFlow.js, whose wasm
// heap would keep the room it took: float32, or quantised as float16 or uint8/uint16.
import { open, readFile } from 'node:fs/promises'
import { endianness } from 'node:os'
import { dirname, join } from 'node:path'
import { artifactsOf } from '../../runtime/tf-io.js'

type WeightSpec = import('@tensorflow/tfjs').io.WeightsManifestEntry
type IOHandler = import('@tensorflow/tfjs').io.IOHandler
interface ModelJson {
  modelTopology: object
  format?: string
  generatedBy?: string
  convertedBy?: string | null
  userDefinedMetadata?: Record<string, {}>
  weightsManifest?: Array<{ paths: string[]; weights: WeightSpec[] }>
}

/** the weight the embedding bag sums (the 'features' Embedding layer's) */
export const EMBEDDINGS = 'features/embeddings'

const BYTES: Record<string, number> = { float32: 4, int32: 4, float16: 2, uint16: 2, uint8: 1, bool: 1 }

/** a weight's value count and its size in the weight file (quantised or not) */
function stored (spec: WeightSpec): { n: number; size: number } {
  const n = spec.shape.reduce((a, b) => a * b, 1)
  return { n, size: n * (BYTES[spec.quantization?.dtype ?? spec.dtype] ?? NaN) }
}

/**
 * model.json and the stored bytes of the weights `wanted` picks, each read from its file at its
 * offset; the others are listed with no bytes (never read: a process reads only what it keeps).
 */
async function readWeights (
  modelJson: string,
  wanted: (spec: WeightSpec) => boolean,
  alloc = (size: number): Uint8Array => Buffer.alloc(size)
): Promise<{ json: ModelJson; weights: Array<{ spec: WeightSpec; bytes: Uint8Array | null }> }> {
  const json = JSON.parse(await readFile(modelJson, 'utf8')) as ModelJson
  const weights: Array<{ spec: WeightSpec; bytes: Uint8Array | null }> = []
  for (const group of json.weightsManifest ?? []) {
    if (group.paths.length !== 1) throw new Error(`${modelJson}: a weight group in ${group.paths.length} files`)
    const file = await open(join(dirname(modelJson), group.paths[0] as string), 'r')
    try {
      let offset = 0
      for (const spec of group.weights) {
        const { size } = stored(spec)
        let bytes: Uint8Array | null = null
        if (wanted(spec)) {
          bytes = alloc(size)
          const { bytesRead } = await file.read(bytes, 0, size, offset)
          if (bytesRead !== size) throw new Error(`${modelJson}: ${group.paths[0]} ends inside ${spec.name}`)
        }
        weights.push({ spec, bytes })
        offset += size
      }
    } finally {
      await file.close()
    }
  }
  return { json, weights }
}

/**
 * The embedding table of the classifier in `dir`, in a SharedArrayBuffer; null if it has none. A
 * table stored as float16 stays so (its bits, half the memory of float32: `halves()` reads them,
 * exactly); other tables are decoded into float32.
 */
export async function sharedEmbedding (dir: string): Promise<Float32Array | Uint16Array | null> {
  const isTable = (spec: WeightSpec) => spec.name === EMBEDDINGS && spec.dtype === 'float32'
  // float16 bits are stored little-endian: on such a machine they are read straight into shared memory
  const direct = endianness() === 'LE'
  const alloc = (size: number) => (direct ? new Uint8Array(new SharedArrayBuffer(size)) : Buffer.alloc(size))
  const table = (await readWeights(join(dir, 'model.json'), isTable, alloc)).weights.find(w => isTable(w.spec))
  if (table?.bytes == null) return null
  const { spec, bytes } = table
  const { n } = stored(spec)
  if (spec.quantization?.dtype !== 'float16') return decode(bytes, n, spec)
  if (direct) return new Uint16Array(bytes.buffer, bytes.byteOffset, n)
  const bits = new Uint16Array(new SharedArrayBuffer(n * 2))
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  for (let i = 0; i < n; i++) bits[i] = view.getUint16(i * 2, true)
  return bits
}

/**
 * The classifier in `dir` for a thread that reads its embedding rows from a shared table: the
 * 'features' layer loads as a single zero row, so TensorFlow.js never allocates the full table (its
 * wasm heap would keep that room for good: about 16 MB per classifier and worker). `rows` is the
 * table's real row count, for checking the shared copy against.
 */
export function withoutEmbeddingTable (modelJson: string): { handler: IOHandler; rows: () => number } {
  let rows = NaN
  const handler: IOHandler = {
    async load () {
      // the table, most of the file, is never read (every worker loads every classifier, and what it
      // read would wait for the GC as garbage)
      const isTable = (spec: WeightSpec) => spec.name === EMBEDDINGS && spec.shape.length === 2
      const { json, weights } = await readWeights(modelJson, spec => !isTable(spec))
      const parts: Uint8Array[] = []
      const kept: WeightSpec[] = []
      for (const { spec, bytes } of weights) {
        if (isTable(spec)) {
          rows = spec.shape[0] as number
          const dim = spec.shape[1] as number
          kept.push({ name: spec.name, shape: [1, dim], dtype: 'float32' })
          parts.push(Buffer.alloc(4 * dim))
        } else {
          kept.push(spec)
          parts.push(bytes as Uint8Array)
        }
      }
      if (Number.isNaN(rows)) throw new Error(`${modelJson}: no ${EMBEDDINGS} weight`)
      const topology = json.modelTopology as {
        config?: { layers?: Array<{ class_name: string; config: { name: string; input_dim?: number } }> }
      }
      const layer = topology.config?.layers?.find(
        l => l.class_name === 'Embedding' && l.config.name === EMBEDDINGS.split('/')[0]
      )
      if (layer === undefined) throw new Error(`${modelJson}: no Embedding layer named ${EMBEDDINGS.split('/')[0]}`)
      layer.config.input_dim = 1
      return artifactsOf(json, kept, parts)
    }
  }
  return { handler, rows: () => rows }
}

function decode (bytes: Uint8Array, n: number, spec: WeightSpec): Float32Array {
  const out = new Float32Array(new SharedArrayBuffer(n * 4))
  const q = spec.quantization
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (q === undefined) for (let i = 0; i < n; i++) out[i] = view.getFloat32(i * 4, true)
  else if (q.dtype === 'float16') {
    const lut = halves()
    for (let i = 0; i < n; i++) out[i] = lut[view.getUint16(i * 2, true)] as number
  } else if (q.dtype === 'uint8' || q.dtype === 'uint16') {
    const scale = q.scale ?? 1
    const min = q.min ?? 0
    for (let i = 0; i < n; i++) {
      out[i] = (q.dtype === 'uint8' ? view.getUint8(i) : view.getUint16(i * 2, true)) * scale + min
    }
  } else throw new Error(`${EMBEDDINGS}: quantisation ${q.dtype} is not read here`)
  return out
}

let lut: Float32Array | null = null
/** Every half-precision value as a float32, by its bits (256 KB, made once per thread). */
export function halves (): Float32Array {
  if (lut === null) {
    lut = new Float32Array(65536)
    for (let h = 0; h < 65536; h++) lut[h] = half(h)
  }
  return lut
}

/** An IEEE 754 half-precision value as a number (exactly). */
function half (h: number): number {
  const sign = h & 0x8000 ? -1 : 1
  const exp = (h >> 10) & 0x1f
  const frac = h & 0x3ff
  if (exp === 0) return sign * frac * 2 ** -24
  if (exp === 31) return frac === 0 ? sign * Infinity : NaN
  return sign * (1 + frac / 1024) * 2 ** (exp - 15)
}
