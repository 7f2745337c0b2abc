// The second facial expression model for facial_emotion: @vladmandic/face-api's expression net
// (MIT, weights in the package's model/ folder), run on the project's TF.js in the image worker.
// Its probabilities are averaged with Human's (docs/models/facial_emotion.md). The net is given the
// crop face-api's own pipeline would give it: its detector (SSD MobileNet v1) and 68 landmarks find
// the face, and the landmarks' bounding box grown by 20% is the crop. A face Human found that
// face-api's detector did not keeps the crop used before: Human's box widened by MARGIN per side
// (Human's box is ~1.5 times the face in photos but about the face in small face crops such as FER's,
// so no one scaling of it suits both: training/facecrop.ts).
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { TF } from '../tf.js'
import { EMOTIONS } from './types.js'

export const MARGIN = 0.2
/** weight of Human's probabilities in the average (face-api's: 1 - HUMAN_WEIGHT) */
export const HUMAN_WEIGHT = 0.5
const NAMES: Record<string, typeof EMOTIONS[number]> = { angry: 'Angry', disgusted: 'Disgust', fearful: 'Fear', happy: 'Happy', sad: 'Sad', surprised: 'Surprise', neutral: 'Neutral' }

interface Rect { x: number, y: number, width: number, height: number }
interface Net { predictExpressions (t: unknown): Promise<Record<string, number>> }
interface FaceApi {
  nets: Record<'faceExpressionNet' | 'ssdMobilenetv1' | 'faceLandmark68Net', { loadFromDisk (p: string): Promise<void> }> & { faceExpressionNet: Net }
  SsdMobilenetv1Options: new (o: { minConfidence: number }) => object
  detectAllFaces (t: unknown, o: object): { withFaceLandmarks (): Promise<Array<{ alignedRect: { box: Rect } }>> }
}
let api: Promise<FaceApi> | null = null

export function loadExpressionNet (): Promise<FaceApi> {
  api ??= (async () => {
    const require = createRequire(import.meta.url)
    const root = dirname(require.resolve('@vladmandic/face-api/package.json'))
    const faceapi = require(join(root, 'dist/face-api.node-wasm.js')) as FaceApi
    for (const n of ['ssdMobilenetv1', 'faceLandmark68Net', 'faceExpressionNet'] as const) await faceapi.nets[n].loadFromDisk(join(root, 'model'))
    return faceapi
  })()
  return api
}

/** the crops face-api's pipeline gives its expression net, [x, y, w, h], for the image of RGB pixels */
export async function faceApiCrops (tf: TF, data: Uint8Array, width: number, height: number): Promise<number[][]> {
  const faceapi = await loadExpressionNet()
  const image = tf.tensor3d(data, [height, width, 3], 'int32')
  try {
    // face-api's default detector threshold
    const found = await faceapi.detectAllFaces(image, new faceapi.SsdMobilenetv1Options({ minConfidence: 0.5 })).withFaceLandmarks()
    return found.map(({ alignedRect: { box: b } }) => [b.x, b.y, b.width, b.height])
  } finally {
    image.dispose()
  }
}

const centre = (b: number[]) => [b[0]! + b[2]! / 2, b[1]! + b[3]! / 2] as const
const inside = (b: number[], [x, y]: readonly [number, number]) => x >= b[0]! && x <= b[0]! + b[2]! && y >= b[1]! && y <= b[1]! + b[3]!

/** face-api's crop for Human's face box: the one whose centre lies in the box and holds the box's centre, nearest first */
export function cropFor (box: number[], crops: number[][]): number[] | undefined {
  const [cx, cy] = centre(box)
  return crops.filter((c) => inside(box, centre(c)) && inside(c, [cx, cy]))
    .sort((p, q) => Math.hypot(centre(p)[0] - cx, centre(p)[1] - cy) - Math.hypot(centre(q)[0] - cx, centre(q)[1] - cy))[0]
}

/**
 * face-api's 7 probabilities (in EMOTIONS order) for Human's face at box [x, y, w, h] of RGB pixels,
 * on face-api's own crop of that face when `crops` (faceApiCrops) holds one, else on the widened box.
 */
export async function expressionOf (tf: TF, data: Uint8Array, width: number, height: number, box: number[], crops: number[][] = []): Promise<number[]> {
  const model = (await loadExpressionNet()).nets.faceExpressionNet
  const own = cropFor(box, crops)
  const [bx, by, bw, bh] = (own ?? [box[0]! - MARGIN * box[2]!, box[1]! - MARGIN * box[3]!, (1 + 2 * MARGIN) * box[2]!, (1 + 2 * MARGIN) * box[3]!]) as [number, number, number, number]
  const x = Math.max(0, Math.round(bx))
  const y = Math.max(0, Math.round(by))
  const x2 = Math.min(width, Math.round(bx + bw))
  const y2 = Math.min(height, Math.round(by + bh))
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
