// How face-api's two detectors compare as the first step of its pipeline's crop (lib/image/expression.ts):
// SSD MobileNet v1 (its default; FACIAL_EMOTION_CROP=detector, opt-in) and the tiny face detector (input 416, its default), each
// followed by the 68 landmarks. For every face Human finds: is a crop found by each, how much the two
// crops overlap, and the time of each detector. No expression label is read: unlabelled images as
// in training/facecrop.ts, and the FER sample's pictures (labels not opened) to see whether either
// detector finds faces in 48 px crops. Run: node --import tsx training/facecrop-detectors.ts
import { dirname, join } from 'node:path'
import { humanFaces, images, iou, require, SHARED, tf } from './facecrop-common.js'
import { cropFor } from '../lib/image/expression.js'

const here = import.meta.dirname
interface Box { x: number, y: number, width: number, height: number }
const faRoot = dirname(require.resolve('@vladmandic/face-api/package.json'))
const faceapi = require(join(faRoot, 'dist/face-api.node-wasm.js')) as {
  nets: Record<'ssdMobilenetv1' | 'tinyFaceDetector' | 'faceLandmark68Net', { loadFromDisk (p: string): Promise<void> }>
  SsdMobilenetv1Options: new (o: object) => object
  TinyFaceDetectorOptions: new (o: object) => object
  detectAllFaces (t: unknown, o: object): { withFaceLandmarks (): Promise<Array<{ alignedRect: { box: Box } }>> }
}
for (const n of ['ssdMobilenetv1', 'tinyFaceDetector', 'faceLandmark68Net'] as const) await faceapi.nets[n].loadFromDisk(join(faRoot, 'model'))
const detectors = { ssd: new faceapi.SsdMobilenetv1Options({ minConfidence: 0.5 }), tiny: new faceapi.TinyFaceDetectorOptions({}) }
async function compare (name: string, files: string[]) {
  const n = { faces: 0, ssd: 0, tiny: 0, both: 0 }
  const ms = { ssd: 0, tiny: 0 }
  let images = 0
  const overlap: number[] = []
  for (const f of files) {
    const seen = await humanFaces(f)
    if (seen === undefined) continue
    const { img } = seen
    const found = seen.boxes.map((box) => ({ box }))
    images++
    const crops: Record<string, number[][]> = {}
    for (const [k, o] of Object.entries(detectors)) {
      const t = tf.tensor3d(img.data, [img.height, img.width, 3], 'int32')
      const t0 = performance.now()
      crops[k] = (await faceapi.detectAllFaces(t, o).withFaceLandmarks()).map(({ alignedRect: { box: b } }) => [b.x, b.y, b.width, b.height])
      ms[k as 'ssd' | 'tiny'] += performance.now() - t0
      t.dispose()
    }
    for (const h of found) {
      n.faces++
      const s = cropFor(h.box, crops.ssd!)
      const t = cropFor(h.box, crops.tiny!)
      if (s !== undefined) n.ssd++
      if (t !== undefined) n.tiny++
      if (s !== undefined && t !== undefined) { n.both++; overlap.push(iou(s, t)) }
    }
  }
  overlap.sort((a, b) => a - b)
  const q = (p: number) => overlap[Math.floor(p * (overlap.length - 1))]?.toFixed(3)
  console.log(`${name}: ${images} images with a face, ${n.faces} Human faces; a crop by SSD ${n.ssd}, by tiny ${n.tiny}, by both ${n.both}; IoU of the two crops median ${q(0.5)} [quartiles ${q(0.25)}, ${q(0.75)}; min ${q(0)}]; ms per image SSD ${(ms.ssd / images).toFixed(0)}, tiny ${(ms.tiny / images).toFixed(0)} (detector and landmarks)`)
}
await compare('unlabelled photos and fetched images', [...images(join(SHARED, 'coco128')), ...images(join(SHARED, 'imagenet-sample')), ...images(join(here, 'data', 'faces-own'))])
await compare('FER sample pictures (labels not read)', images(join(SHARED, 'fer2013-privatetest-sample')))
