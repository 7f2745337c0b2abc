// Rule 3 for the crop of face-api's expression net (docs/models/facial_emotion.md): no face-api
// detector; face-api's 68-landmark net is run on Human's face box, and the landmarks' bounding box
// grown by 20% (face-api's alignedRect) is the crop. face-api itself gives the landmark net the
// detector's box as it is, clipped to the image (extractFaceTensors: no margin), and the net pads it
// to a square; so does rule 3, with Human's box in place of the detector's. Compared here, without
// any expression label, with rule 2's crop (face-api's SSD detector, then the same landmarks): the
// full and the tiny landmark net, each run once on Human's box, and the full net run a second time
// on the first pass's crop (Human's box is ~1.5 times the face in photos, larger than the detector
// boxes the net was made for). Images: as training/facecrop-detectors.ts (unlabelled photos; the FER
// sample's pictures, labels not opened, where SSD finds no face and the old widened box is compared).
// Rule 3 (the tiny net, once) was measured once and dropped: FER sample 0.662 -> 0.492 (docs/models/facial_emotion.md).
// Run: node --import tsx training/facecrop-landmarks.ts
import { dirname, join } from 'node:path'
import { humanFaces, images, iou, require, SHARED, tf } from './facecrop-common.js'
import { cropFor, widened } from '../lib/image/expression.js'

const here = import.meta.dirname
interface Box { x: number, y: number, width: number, height: number }
interface Landmarks { shiftBy (x: number, y: number): Landmarks, align (): Box }
type LandmarkNet = { loadFromDisk (p: string): Promise<void>, detectLandmarks (t: unknown): Promise<Landmarks> }
const faRoot = dirname(require.resolve('@vladmandic/face-api/package.json'))
const faceapi = require(join(faRoot, 'dist/face-api.node-wasm.js')) as {
  nets: Record<'ssdMobilenetv1', { loadFromDisk (p: string): Promise<void> }> & Record<'faceLandmark68Net' | 'faceLandmark68TinyNet', LandmarkNet>
  SsdMobilenetv1Options: new (o: object) => object
  detectAllFaces (t: unknown, o: object): { withFaceLandmarks (): Promise<Array<{ alignedRect: { box: Box } }>> }
}
for (const n of ['ssdMobilenetv1', 'faceLandmark68Net', 'faceLandmark68TinyNet'] as const) await faceapi.nets[n].loadFromDisk(join(faRoot, 'model'))

/** the landmark net on box [x, y, w, h] clipped to the image, as face-api's extractFaceTensors does; the landmarks' box grown by 20% */
async function landmarkCrop (net: LandmarkNet, image: unknown, width: number, height: number, b: number[]): Promise<number[]> {
  const x = Math.max(0, Math.floor(b[0]!))
  const y = Math.max(0, Math.floor(b[1]!))
  const x2 = Math.min(width, Math.ceil(b[0]! + b[2]!))
  const y2 = Math.min(height, Math.ceil(b[1]! + b[3]!))
  const face = tf.slice(image as Parameters<typeof tf.slice>[0], [y, x, 0], [Math.max(1, y2 - y), Math.max(1, x2 - x), 3])
  try {
    const r = (await net.detectLandmarks(face)).shiftBy(x, y).align()
    return [r.x, r.y, r.width, r.height]
  } finally {
    face.dispose()
  }
}
const clip = (b: number[], w: number, h: number) => {
  const x = Math.max(0, b[0]!); const y = Math.max(0, b[1]!)
  return [x, y, Math.min(w, b[0]! + b[2]!) - x, Math.min(h, b[1]! + b[3]!) - y]
}
const summary = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const q = (p: number) => s[Math.floor(p * (s.length - 1))]?.toFixed(2)
  return `median ${q(0.5)} [quartiles ${q(0.25)}-${q(0.75)}; 10th pct ${q(0.1)}; share >= 0.7: ${(s.filter((v) => v >= 0.7).length / Math.max(1, s.length)).toFixed(2)}] (n ${s.length})`
}
const VARIANTS = ['full', 'tiny', 'full2', 'widened'] as const
async function compare (name: string, files: string[]) {
  let faces = 0; let withSsd = 0; let imagesWithFace = 0
  const ms: Record<string, number> = { ssd: 0, full: 0, tiny: 0 }
  const vsSsd: Record<string, number[]> = Object.fromEntries(VARIANTS.map((v) => [v, []]))
  const vsWidened: Record<string, number[]> = Object.fromEntries(VARIANTS.map((v) => [v, []]))
  const scale: number[] = []
  for (const f of files) {
    const seen = await humanFaces(f)
    if (seen === undefined) continue
    const { img } = seen
    const found = seen.boxes.map((box) => ({ box }))
    imagesWithFace++
    const t = tf.tensor3d(img.data, [img.height, img.width, 3], 'int32')
    let t0 = performance.now()
    const ssd = (await faceapi.detectAllFaces(t, new faceapi.SsdMobilenetv1Options({ minConfidence: 0.5 })).withFaceLandmarks()).map(({ alignedRect: { box: b } }) => [b.x, b.y, b.width, b.height])
    ms.ssd! += performance.now() - t0
    for (const h of found) {
      faces++
      const crop: Record<string, number[]> = {}
      t0 = performance.now()
      crop.full = await landmarkCrop(faceapi.nets.faceLandmark68Net, t, img.width, img.height, h.box)
      ms.full! += performance.now() - t0
      t0 = performance.now()
      crop.tiny = await landmarkCrop(faceapi.nets.faceLandmark68TinyNet, t, img.width, img.height, h.box)
      ms.tiny! += performance.now() - t0
      crop.full2 = await landmarkCrop(faceapi.nets.faceLandmark68Net, t, img.width, img.height, crop.full)
      crop.widened = widened(h.box)
      for (const v of VARIANTS) crop[v] = clip(crop[v]!, img.width, img.height)
      scale.push(crop.full[2]! / h.box[2]!)
      const s = cropFor(h.box, ssd)
      if (s !== undefined) withSsd++
      for (const v of VARIANTS) {
        if (s !== undefined) vsSsd[v]!.push(iou(crop[v]!, clip(s, img.width, img.height)))
        vsWidened[v]!.push(iou(crop[v]!, crop.widened))
      }
    }
    t.dispose()
  }
  console.log(`${name}: ${imagesWithFace} images with a face, ${faces} Human faces, ${withSsd} with a rule-2 (SSD) crop`)
  console.log(`  ms: SSD + landmarks per image ${(ms.ssd! / imagesWithFace).toFixed(0)}; full landmark net per face ${(ms.full! / faces).toFixed(1)}, tiny ${(ms.tiny! / faces).toFixed(1)}`)
  console.log(`  width of the full net's crop / Human's box width: ${summary(scale)}`)
  for (const v of VARIANTS) console.log(`  ${v}: IoU with rule 2's crop ${summary(vsSsd[v]!)}; with the widened box ${summary(vsWidened[v]!)}`)
}
await compare('unlabelled photos and fetched images', [...images(join(SHARED, 'coco128')), ...images(join(SHARED, 'imagenet-sample')), ...images(join(here, 'data', 'faces-own'))])
await compare('FER sample pictures (labels not read)', images(join(SHARED, 'fer2013-privatetest-sample')))
