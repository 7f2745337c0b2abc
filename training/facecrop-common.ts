// What the face-crop studies (training/facecrop*.ts; docs/models/facial_emotion.md) share: the
// unlabelled pictures they read and Human set up with lib/image/worker.ts's face settings (emotion off:
// only the boxes are wanted). Importing it starts TF.js's wasm backend and loads Human.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { getTf } from '../lib/tf.js'
import { fileIO } from '../lib/tf-io.js'
import { decodeImage } from '../lib/image/decode.js'
import { iou as boxIou } from '../eval/images.js'

/** ../shared's image sets (COCO-128, the ImageNet sample, the FER sample) */
export const SHARED = join(import.meta.dirname, '..', '..', 'shared', 'datasets', 'images')
/** every picture below a folder */
export function images (dir: string): string[] {
  const out: string[] = []
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) out.push(...images(p))
    else if (/\.(jpe?g|png)$/i.test(name)) out.push(p)
  }
  return out
}

export const require = createRequire(import.meta.url)
export const { tf } = await getTf()
tf.io.registerLoadRouter(((url: string | string[]) => typeof url === 'string' && url.startsWith('file://') ? fileIO(url.slice(7)) : null) as Parameters<typeof tf.io.registerLoadRouter>[0])
const root = join(dirname(require.resolve('@vladmandic/human')), '..')
const { Human } = require(join(root, 'dist/human.node-wasm.js')) as { Human: new (c: object) => any }
export const human = new Human({
  backend: 'wasm',
  wasmPath: dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm')) + '/',
  modelBasePath: 'file://' + join(root, 'models') + '/',
  debug: false,
  cacheSensitivity: 0,
  face: { enabled: true, detector: { rotation: false, maxDetected: 20, minConfidence: 0.2, return: false }, mesh: { enabled: false }, iris: { enabled: false }, description: { enabled: false }, emotion: { enabled: false }, antispoof: { enabled: false }, liveness: { enabled: false } },
  body: { enabled: false },
  hand: { enabled: false },
  gesture: { enabled: false },
  segmentation: { enabled: false },
  object: { enabled: false }
})
await human.load()

/** a picture as the image worker reads it (at most 1024 px a side) and the face boxes [x, y, w, h]
 * Human finds in it; undefined when it does not decode or has no face */
export async function humanFaces (file: string): Promise<{ img: Awaited<ReturnType<typeof decodeImage>>, boxes: number[][] } | undefined> {
  let img: Awaited<ReturnType<typeof decodeImage>>
  try { img = await decodeImage(readFileSync(file), 50_000_000, 1024) } catch { return undefined } // not an image after all
  const input = human.tf.tensor4d(img.data, [1, img.height, img.width, 3], 'int32')
  const found = (await human.detect(input)).face as Array<{ box: number[] }>
  input.dispose()
  return found.length === 0 ? undefined : { img, boxes: found.map((f) => f.box) }
}

const asBox = (b: number[]) => ({ x: b[0]!, y: b[1]!, width: b[2]!, height: b[3]! })
/** intersection over union of two boxes [x, y, w, h] (eval/images.ts iou) */
export const iou = (a: number[], b: number[]): number => boxIou(asBox(a), asBox(b))
