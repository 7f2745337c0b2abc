// The second facial expression model for facial_emotion: @vladmandic/face-api's expression net
// (MIT, weights in the package's model/ folder), run on the project's TF.js in the image worker.
// Its probabilities are averaged with Human's (docs/models/facial_emotion.md). The crop it is given
// for a face Human found is set by FACIAL_EMOTION_CROP (docs/configuration.md):
// - 'box' (default): Human's box widened by MARGIN per side;
// - 'detector': face-api's own pipeline on the image (its SSD detector, then its 68 landmarks), whose
//   crop is the landmarks' bounding box grown by 20%, matched to Human's box; the widened box where
//   the detector found none. Better on photos, where Human's box is ~1.5 times the face, but 2.5-6
//   times slower (SSD always works on 512 x 512) and 5.6 MB more weights per worker.
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { TF } from '../runtime/tf.js'
import { EMOTIONS } from './types.js'

export const MARGIN = 0.2
/** weight of Human's probabilities in the average (face-api's: 1 - HUMAN_WEIGHT) */
export const HUMAN_WEIGHT = 0.5
export const FACE_CROPS = ['box', 'detector'] as const
export type FaceCrop = (typeof FACE_CROPS)[number]
const NAMES: Record<string, (typeof EMOTIONS)[number]> = {
  angry: 'Angry',
  disgusted: 'Disgust',
  fearful: 'Fear',
  happy: 'Happy',
  sad: 'Sad',
  surprised: 'Surprise',
  neutral: 'Neutral'
}

interface Rect {
  x: number
  y: number
  width: number
  height: number
}
interface Loadable {
  loadFromDisk(p: string): Promise<void>
}
interface FaceApi {
  nets: Record<'ssdMobilenetv1' | 'faceLandmark68Net', Loadable> & {
    faceExpressionNet: Loadable & { predictExpressions(t: unknown): Promise<Record<string, number>> }
  }
  SsdMobilenetv1Options: new (o: { minConfidence: number }) => object
  detectAllFaces(t: unknown, o: object): { withFaceLandmarks(): Promise<Array<{ alignedRect: { box: Rect } }>> }
}
let api: Promise<FaceApi> | null = null

/** face-api with the nets `rule` uses loaded (SSD and the landmark net only for 'detector') */
export function loadExpressionNet (rule: FaceCrop): Promise<FaceApi> {
  api ??= (async () => {
    const require = createRequire(import.meta.url)
    const root = dirname(require.resolve('@vladmandic/face-api/package.json'))
    const faceapi = require(join(root, 'dist/face-api.node-wasm.js')) as FaceApi
    const nets = rule === 'detector' ? (['ssdMobilenetv1', 'faceLandmark68Net'] as const) : []
    for (const n of [...nets, 'faceExpressionNet'] as const) await faceapi.nets[n].loadFromDisk(join(root, 'model'))
    return faceapi
  })()
  return api
}

type Tensor = ReturnType<TF['tensor3d']>
export const widened = (b: number[]): number[] => [
  b[0]! - MARGIN * b[2]!,
  b[1]! - MARGIN * b[3]!,
  (1 + 2 * MARGIN) * b[2]!,
  (1 + 2 * MARGIN) * b[3]!
]
/** box [x, y, w, h] in whole pixels, clipped to the image (at least 1 x 1) */
function clipped (b: number[], width: number, height: number): [number, number, number, number] {
  const x = Math.min(width - 1, Math.max(0, Math.round(b[0]!)))
  const y = Math.min(height - 1, Math.max(0, Math.round(b[1]!)))
  return [
    x,
    y,
    Math.max(1, Math.min(width, Math.round(b[0]! + b[2]!)) - x),
    Math.max(1, Math.min(height, Math.round(b[1]! + b[3]!)) - y)
  ]
}
const cut = (tf: TF, frame: Tensor, [x, y, w, h]: number[]) => tf.slice(frame, [y!, x!, 0], [h!, w!, 3])

/** rule 'detector': face-api's own detector and landmarks on the whole image (its default threshold, 0.5) */
async function detectorCrops (faceapi: FaceApi, frame: Tensor): Promise<number[][]> {
  const found = await faceapi
    .detectAllFaces(frame, new faceapi.SsdMobilenetv1Options({ minConfidence: 0.5 }))
    .withFaceLandmarks()
  return found.map(({ alignedRect: { box: b } }) => [b.x, b.y, b.width, b.height])
}

const centre = (b: number[]) => [b[0]! + b[2]! / 2, b[1]! + b[3]! / 2] as const
const inside = (b: number[], [x, y]: readonly [number, number]) =>
  x >= b[0]! && x <= b[0]! + b[2]! && y >= b[1]! && y <= b[1]! + b[3]!

/**
 * face-api's detector crop for Human's face box: the one whose centre lies in the box and holds the box's centre,
 * nearest first
 */
export function cropFor (box: number[], crops: number[][]): number[] | undefined {
  const [cx, cy] = centre(box)
  return crops
    .filter(c => inside(box, centre(c)) && inside(c, [cx, cy]))
    .sort(
      (p, q) => Math.hypot(centre(p)[0] - cx, centre(p)[1] - cy) - Math.hypot(centre(q)[0] - cx, centre(q)[1] - cy)
    )[0]
}

/**
 * face-api's 7 probabilities (in EMOTIONS order) for each of Human's face boxes [x, y, w, h] in
 * `image` (the RGB tensor Human was given, [1, h, w, 3]: read in place, not copied), on the crop `rule` gives
 */
export async function faceExpressions (
  tf: TF,
  image: ReturnType<TF['tensor4d']>,
  boxes: number[][],
  rule: FaceCrop
): Promise<number[][]> {
  if (boxes.length === 0) return []
  const faceapi = await loadExpressionNet(rule)
  const frame = tf.reshape(image, image.shape.slice(1) as [number, number, number]) as Tensor
  const [height, width] = frame.shape
  try {
    let crops = boxes.map(widened)
    if (rule === 'detector') {
      const found = await detectorCrops(faceapi, frame)
      crops = boxes.map(b => cropFor(b, found) ?? widened(b))
    }
    const out: number[][] = []
    for (const c of crops) {
      const crop = cut(tf, frame, clipped(c, width, height))
      try {
        const e = await faceapi.nets.faceExpressionNet.predictExpressions(crop)
        const p = EMOTIONS.map(() => 0)
        for (const [k, v] of Object.entries(e)) {
          const n = NAMES[k]
          if (n !== undefined) p[EMOTIONS.indexOf(n)] = v
        }
        out.push(p)
      } finally {
        crop.dispose()
      }
    }
    return out
  } finally {
    frame.dispose()
  }
}
