// The image worker: decodes and runs @vladmandic/human (blazeface + the 7-class emotion model,
// CenterNet for COCO objects) off the event loop. One Human instance per worker, loaded from the
// package's own files (no CDN): the node-wasm build by file path (its exports map omits it), the
// wasm binaries from node_modules, and model files through the project's file IO handler.
import { parentPort, workerData } from 'node:worker_threads'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { getTf } from '../runtime/tf.js'
import { fileIO } from '../runtime/tf-io.js'
import { decodeImage, ImageError } from './decode.js'
import { COCO_LABELS, EMOTIONS, type ImageJob, type ImageReply, type ImageResult } from './types.js'
import { classifyNsfw } from './nsfw.js'
import { faceExpressions, HUMAN_WEIGHT, loadExpressionNet, type FaceCrop } from './expression.js'

const require = createRequire(import.meta.url)
const {
  maxPixels,
  maxSide,
  objectTop,
  faceCrop = 'box'
} = workerData as { maxPixels: number; maxSide: number; objectTop: number; faceCrop?: FaceCrop }

const { tf } = await getTf()
tf.io.registerLoadRouter(((url: string | string[]) =>
  typeof url === 'string' && url.startsWith('file://') ? fileIO(url.slice(7)) : null) as Parameters<
  typeof tf.io.registerLoadRouter
>[0])
const root = join(dirname(require.resolve('@vladmandic/human')), '..')
const { Human } = require(join(root, 'dist/human.node-wasm.js')) as { Human: new (c: object) => any }
const human = new Human({
  backend: 'wasm',
  wasmPath: dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm')) + '/',
  modelBasePath: 'file://' + join(root, 'models') + '/',
  debug: false,
  cacheSensitivity: 0,
  // a low detector threshold finds the small, tightly cropped faces of FER-style images
  face: {
    enabled: true,
    detector: { rotation: false, maxDetected: 20, minConfidence: 0.2, return: false },
    mesh: { enabled: false },
    iris: { enabled: false },
    description: { enabled: false },
    emotion: { enabled: true, minConfidence: 0 },
    antispoof: { enabled: false },
    liveness: { enabled: false }
  },
  body: { enabled: false },
  hand: { enabled: false },
  gesture: { enabled: false },
  segmentation: { enabled: false },
  object: { enabled: true, modelPath: 'centernet.json', minConfidence: 0.15, maxDetected: 50 }
})
await human.load()
await loadExpressionNet(faceCrop)

const title = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

async function analyse (job: ImageJob): Promise<ImageResult> {
  const img = await decodeImage(Buffer.from(job.bytes), maxPixels, maxSide)
  // nsfw: nsfwjs's MobileNetV2 on the project's TF.js, loaded on this worker's first nsfw job
  if (job.op === 'nsfw') return classifyNsfw(tf, img)
  const sx = img.originalWidth / img.width
  const sy = img.originalHeight / img.height
  // one tensor, disposed below (an expandDims here once leaked the 3-d original: ~10 MB per image)
  const input = human.tf.tensor4d(img.data, [1, img.height, img.width, 3], 'int32')
  try {
    const faces = job.op === 'facial_emotion'
    const res = await human.detect(input, { face: { enabled: faces }, object: { enabled: !faces } })
    // detector boxes in original-image coordinates, clamped to the image
    const box = (b: number[]) => {
      const x = Math.max(0, Math.round(b[0]! * sx))
      const y = Math.max(0, Math.round(b[1]! * sy))
      const x2 = Math.min(img.originalWidth, Math.round((b[0]! + b[2]!) * sx))
      const y2 = Math.min(img.originalHeight, Math.round((b[1]! + b[3]!) * sy))
      return { x, y, width: Math.max(0, x2 - x), height: Math.max(0, y2 - y) }
    }
    if (faces) {
      const detected = res.face as Array<{ box: number[]; emotion?: Array<{ score: number; emotion: string }> }>
      // face-api's expression net on each face, averaged with Human's below (lib/image/expression.ts)
      const others = await faceExpressions(
        tf,
        input,
        detected.map(f => f.box),
        faceCrop
      )
      const found = detected
        .map((f, i) => {
          const scores = new Map(EMOTIONS.map(e => [e, 0]))
          for (const e of f.emotion ?? []) scores.set(title(e.emotion) as (typeof EMOTIONS)[number], e.score)
          const total = [...scores.values()].reduce((a, b) => a + b, 0) || 1
          const other = others[i]!
          const list = [...scores]
            .map(([tag, score], k) => ({ tag, score: (HUMAN_WEIGHT * score) / total + (1 - HUMAN_WEIGHT) * other[k]! }))
            .sort((a, b) => b.score - a.score)
          return { box: box(f.box), facial_emotion: list }
        })
        .sort((a, b) => b.box.width * b.box.height - a.box.width * a.box.height)
      return { facial_emotion: found[0]?.facial_emotion ?? [], faces: found }
    }
    const seen = new Set<string>()
    const objects = (res.object as Array<{ score: number; label: string; box: number[] }>)
      .sort((a, b) => b.score - a.score)
      .filter(o => COCO_LABELS.includes(o.label) && !seen.has(o.label) && seen.add(o.label))
      .slice(0, objectTop)
    return {
      output: objects.map(o => ({ tag: o.label, score: o.score })),
      boxes: objects.map(o => ({ tag: o.label, score: o.score, box: box(o.box) }))
    }
  } finally {
    input.dispose()
  }
}

parentPort!.on('message', (job: ImageJob) => {
  analyse(job).then(
    result =>
      parentPort!.postMessage({ id: job.id, result, tensors: human.tf.memory().numTensors } satisfies ImageReply),
    (err: unknown) =>
      parentPort!.postMessage({
        id: job.id,
        tensors: human.tf.memory().numTensors,
        error:
          err instanceof ImageError
            ? { kind: err.kind, message: err.message }
            : { kind: 'internal', message: (err as Error).message }
      } satisfies ImageReply)
  )
})
// warm both models before saying ready: a failed warm-up fails start-up
const warm = human.tf.zeros([1, 256, 256, 3], 'int32')
await human.detect(warm)
await faceExpressions(tf, warm, [[64, 64, 128, 128]], faceCrop)
warm.dispose()
parentPort!.postMessage({ ready: true, backend: human.tf.getBackend() })
