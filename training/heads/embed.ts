// Sentence vectors of training and validation texts, kept on disk per encoder (training/data/vectors/,
// ignored by git) so that a second head, or a second run, reads each text once.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { join, relative } from 'node:path'
import { loadEncoder, type TextEncoder } from '../../lib/text/encoder/encoder.js'
import { latest, STORE } from '../readers/store.js'
import { options } from '../readers/options.js'

/** The encoder a head is trained on (HEAD_ENCODER, or model-store/text-encoder's highest version), its
 * folder, and the disk cache of its vectors. */
export async function trainingEncoder (): Promise<{ dir: string; encoder: TextEncoder; cache: VectorCache }> {
  const top = join(STORE, 'text-encoder')
  const dir = options.headEncoder ?? join(top, String(latest(top)))
  const encoder = await loadEncoder(dir, { threads: 2, maxBatch: 64, cacheSize: 0 })
  const name = relative(STORE, dir).replaceAll('/', '-')
  return { dir, encoder, cache: new VectorCache(join(import.meta.dirname, '..', 'data', 'vectors', name), encoder) }
}

const key = (text: string): string => createHash('sha1').update(text).digest('base64')

export class VectorCache {
  private readonly known = new Map<string, Float32Array>()
  private readonly keysFile: string
  private readonly vectorsFile: string

  constructor (
    dir: string,
    private readonly encoder: TextEncoder
  ) {
    mkdirSync(dir, { recursive: true })
    this.keysFile = join(dir, 'keys.txt')
    this.vectorsFile = join(dir, 'vectors.f32')
    if (!existsSync(this.keysFile)) return
    const keys = readFileSync(this.keysFile, 'utf8').split('\n').filter(Boolean)
    const bytes = readFileSync(this.vectorsFile)
    const all = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4)
    const d = encoder.dims
    // a run stopped between the two appends leaves a key without its vector: read what is whole
    const whole = Math.min(keys.length, Math.floor(all.length / d))
    for (let i = 0; i < whole; i++) this.known.set(keys[i] as string, all.subarray(i * d, (i + 1) * d))
  }

  /** The texts' vectors, encoding those not yet on disk (shortest first, in chunks). */
  async vectors (texts: readonly string[], log: (s: string) => void): Promise<Float32Array[]> {
    const missing = [...new Set(texts)].filter(t => !this.known.has(key(t)))
    missing.sort((a, b) => a.length - b.length)
    const t0 = performance.now()
    for (let at = 0; at < missing.length; at += 1024) {
      const chunk = missing.slice(at, at + 1024)
      const got = await this.encoder.embed(chunk)
      const flat = new Float32Array(got.length * this.encoder.dims)
      got.forEach((v, i) => flat.set(v, i * this.encoder.dims))
      appendFileSync(this.vectorsFile, new Uint8Array(flat.buffer))
      appendFileSync(this.keysFile, chunk.map(key).join('\n') + '\n')
      chunk.forEach((t, i) => this.known.set(key(t), got[i] as Float32Array))
      const done = at + chunk.length
      if ((done / 1024) % 20 === 0 || done === missing.length) {
        const rate = Math.round(done / ((performance.now() - t0) / 1000))
        log(`encoded ${done} of ${missing.length} new texts (${rate}/s)`)
      }
    }
    return texts.map(t => this.known.get(key(t)) as Float32Array)
  }
}
