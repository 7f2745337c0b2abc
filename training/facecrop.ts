// Where face-api's own pipeline crops a face, against Human's face box, from box geometry alone
// (docs/models/facial_emotion.md, "The crop given to face-api's net": a fixed map fitted here was
// measured once and dropped; face-api's own pipeline is the opt-in FACIAL_EMOTION_CROP=detector,
// lib/image/expression.ts).
// face-api's own pipeline (detectAllFaces().withFaceLandmarks().withFaceExpressions()) gives its
// expression net the "aligned" box: the bounding box of the 68 landmarks, grown by 20% of its width
// and height. Here Human's face box (as served: lib/image/worker.ts's detector settings, the image
// scaled to 1024 px) and that aligned box are found on the same photos, matched, and the aligned box
// is described relative to Human's: its width and height as multiples of Human's, its centre shifted by
// a fraction of Human's width and height (medians, so a few bad matches do not move them).
// No expression label is read: the images are every picture under ../shared's COCO-128 and ImageNet
// sample and under training/data/faces-own (the fetched repositories, listed from disk, not from the
// labelled csv). Run: node --import tsx training/facecrop.ts
import { readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { humanFaces, images, require, SHARED, tf } from './facecrop-common.js'

const here = import.meta.dirname
const FETCHED = join(here, 'data', 'faces-own')
const LABELLED = readFileSync(join(here, '..', 'eval', 'data', 'faces-own.csv'), 'utf8').split(/\r?\n/).slice(1).map((l) => l.split(',')[1] ?? '')

const faRoot = dirname(require.resolve('@vladmandic/face-api/package.json'))
interface Box { x: number, y: number, width: number, height: number }
const faceapi = require(join(faRoot, 'dist/face-api.node-wasm.js')) as {
  nets: Record<'ssdMobilenetv1' | 'faceLandmark68Net', { loadFromDisk (p: string): Promise<void> }>
  SsdMobilenetv1Options: new (o: object) => object
  detectAllFaces (t: unknown, o: object): { withFaceLandmarks (): Promise<Array<{ detection: { box: Box, score: number }, alignedRect: { box: Box } }>> }
}
await faceapi.nets.ssdMobilenetv1.loadFromDisk(join(faRoot, 'model'))
await faceapi.nets.faceLandmark68Net.loadFromDisk(join(faRoot, 'model'))

interface Pair { group: string, file: string, human: number[], aligned: number[], detector: number[] }
const pairs: Pair[] = []
const files = [
  ...images(join(SHARED, 'coco128')).map((f) => ({ f, group: 'coco128' })),
  ...images(join(SHARED, 'imagenet-sample')).map((f) => ({ f, group: 'imagenet-sample' })),
  ...images(FETCHED).map((f) => {
    const rel = relative(FETCHED, f).split('/').slice(1).join('/')
    return { f, group: LABELLED.includes(rel) ? 'fetched, in the labelled csv' : 'fetched, not in the csv' }
  })
]
const inside = (b: number[], x: number, y: number) => x >= b[0]! && x <= b[0]! + b[2]! && y >= b[1]! && y <= b[1]! + b[3]!
const centre = (b: number[]) => [b[0]! + b[2]! / 2, b[1]! + b[3]! / 2] as const
for (const { f, group } of files) {
  const seen = await humanFaces(f)
  if (seen === undefined) continue
  const { img } = seen
  const found = seen.boxes.map((box) => ({ box }))
  const t = tf.tensor3d(img.data, [img.height, img.width, 3], 'int32')
  const fa = await faceapi.detectAllFaces(t, new faceapi.SsdMobilenetv1Options({ minConfidence: 0.5 })).withFaceLandmarks()
  t.dispose()
  // a pair: each box's centre inside the other's, the nearest such Human face for each face-api face
  for (const a of fa) {
    const al = [a.alignedRect.box.x, a.alignedRect.box.y, a.alignedRect.box.width, a.alignedRect.box.height]
    const [ax, ay] = centre(al)
    const near = found.map((h) => h.box).filter((b) => inside(b, ax, ay) && inside(al, ...centre(b)))
      .sort((p, q) => Math.hypot(centre(p)[0] - ax, centre(p)[1] - ay) - Math.hypot(centre(q)[0] - ax, centre(q)[1] - ay))[0]
    if (near === undefined) continue
    const d = a.detection.box
    pairs.push({ group, file: relative(here, f), human: near, aligned: al, detector: [d.x, d.y, d.width, d.height] })
  }
}

const median = (v: number[]) => { const s = [...v].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2 }
const quart = (v: number[]) => { const s = [...v].sort((a, b) => a - b); return [s[Math.floor(s.length / 4)]!, s[Math.floor(3 * s.length / 4)]!] }
/** target box relative to Human's: width and height ratios, centre shift in Human widths/heights */
function rel (ps: Pair[], which: 'aligned' | 'detector') {
  const w = ps.map((p) => p[which][2]! / p.human[2]!)
  const h = ps.map((p) => p[which][3]! / p.human[3]!)
  const dx = ps.map((p) => (centre(p[which])[0] - centre(p.human)[0]) / p.human[2]!)
  const dy = ps.map((p) => (centre(p[which])[1] - centre(p.human)[1]) / p.human[3]!)
  const f = (v: number[]) => `${median(v).toFixed(3)} [${quart(v).map((x) => x.toFixed(3)).join(', ')}]`
  return `n ${ps.length}  width ${f(w)}  height ${f(h)}  centre dx ${f(dx)}  dy ${f(dy)}`
}
const groups = [...new Set(pairs.map((p) => p.group))]
console.log(`${files.length} images, ${pairs.length} faces found by both (median [quartiles])`)
for (const which of ['aligned', 'detector'] as const) {
  console.log(`\n${which === 'aligned' ? "face-api's aligned box (what its pipeline gives the expression net)" : "face-api's detector box"} relative to Human's box`)
  console.log(`  all: ${rel(pairs, which)}`)
  for (const g of groups) console.log(`  ${g}: ${rel(pairs.filter((p) => p.group === g), which)}`)
  console.log(`  without the labelled csv's images: ${rel(pairs.filter((p) => p.group !== 'fetched, in the labelled csv'), which)}`)
}
// Human's box is square-ish; say how wide it is against its height
console.log(`\nHuman box width / height: ${median(pairs.map((p) => p.human[2]! / p.human[3]!)).toFixed(3)}; aligned box width / height: ${median(pairs.map((p) => p.aligned[2]! / p.aligned[3]!)).toFixed(3)}`)
