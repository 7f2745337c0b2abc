// The second facial expression model for facial_emotion: @vladmandic/face-api's expression net
// (MIT, weights in the package's model/ folder), run on the project's TF.js in the image worker,
// on each face box found by Human mapped to the box face-api's own pipeline would crop (CROP).
// Its probabilities are averaged with Human's (docs/models/facial_emotion.md).
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { TF } from '../tf.js'
import { EMOTIONS } from './types.js'

/**
 * face-api's pipeline feeds its expression net the bounding box of its 68 landmarks grown by 20%;
 * Human's box is larger than that face. Relative to Human's box [x, y, w, h] that crop is `width` w
 * wide and `height` h tall, its centre moved by dx w and dy h: medians over 168 faces found by both
 * in unlabelled photos (training/facecrop.ts; no expression label used).
 */
export const CROP = { width: 0.67, height: 0.64, dx: -0.02, dy: 0.03 }
/** weight of Human's probabilities in the average (face-api's: 1 - HUMAN_WEIGHT) */
export const HUMAN_WEIGHT = 0.5
const NAMES: Record<string, typeof EMOTIONS[number]> = { angry: 'Angry', disgusted: 'Disgust', fearful: 'Fear', happy: 'Happy', sad: 'Sad', surprised: 'Surprise', neutral: 'Neutral' }

interface Net { predictExpressions (t: unknown): Promise<Record<string, number>> }
let net: Promise<Net> | null = null

export function loadExpressionNet (): Promise<Net> {
  net ??= (async () => {
    const require = createRequire(import.meta.url)
    const root = dirname(require.resolve('@vladmandic/face-api/package.json'))
    const faceapi = require(join(root, 'dist/face-api.node-wasm.js')) as { nets: { faceExpressionNet: Net & { loadFromDisk (p: string): Promise<void> } } }
    await faceapi.nets.faceExpressionNet.loadFromDisk(join(root, 'model'))
    return faceapi.nets.faceExpressionNet
  })()
  return net
}

/** face-api's 7 probabilities (in EMOTIONS order) for the face at box [x, y, w, h] of RGB pixels. */
export async function expressionOf (tf: TF, data: Uint8Array, width: number, height: number, box: number[]): Promise<number[]> {
  const model = await loadExpressionNet()
  const [bx, by, bw, bh] = box as [number, number, number, number]
  const cx = bx + (0.5 + CROP.dx) * bw
  const cy = by + (0.5 + CROP.dy) * bh
  const x = Math.max(0, Math.round(cx - CROP.width * bw / 2))
  const y = Math.max(0, Math.round(cy - CROP.height * bh / 2))
  const x2 = Math.min(width, Math.round(cx + CROP.width * bw / 2))
  const y2 = Math.min(height, Math.round(cy + CROP.height * bh / 2))
  const crop = tf.tidy(() => tf.slice(tf.tensor3d(data, [height, width, 3], 'int32'), [y, x, 0], [Math.max(1, y2 - y), Math.max(1, x2 - x), 3]))
  try {
    const e = await model.predictExpressions(crop)
    const out = EMOTIONS.map(() => 0)
    for (const [k, p] of Object.entries(e)) { const n = NAMES[k]; if (n !== undefined) out[EMOTIONS.indexOf(n)] = p }
    return out
  } finally {
    crop.dispose()
  }
}
