// Loaders for the image models (manifest kinds human-face, human-object, nsfw-classifier). All run in the
// same worker pool; the pool starts with the first model and stops with the last.
// sharp's advice for worker threads on glibc: load it in the main thread before any worker does
import sharp from 'sharp'
import type { LoadedModel, LoaderContext, ModelLoader } from '../serving/loaded-model.js'
import type { ImageInput } from './sniff.js'
import { ImagePool } from './pool.js'
import { IMAGE_DEFAULTS } from '../config.js'
import type { ImageResult, Op } from './types.js'

let shared: { pool: ImagePool; users: number; ready: Promise<void> } | null = null

function acquire (ctx: LoaderContext): { pool: ImagePool; ready: Promise<void> } {
  if (shared === null) {
    const s = ctx.image ?? {
      workers: IMAGE_DEFAULTS.workers(),
      queue: IMAGE_DEFAULTS.queue,
      objectTop: IMAGE_DEFAULTS.objectTop
    }
    const pool = new ImagePool({
      size: s.workers,
      maxPixels: ctx.imageMaxPixels,
      maxSide: 1024,
      objectTop: s.objectTop,
      maxQueue: s.queue,
      faceCrop: s.facialEmotionCrop
    })
    shared = { pool, users: 0, ready: pool.start() }
  }
  shared.users++
  return shared
}

function release (): void {
  if (shared === null) return
  if (--shared.users === 0) {
    void shared.pool.close()
    shared = null
  }
}

function loader (op: Op): ModelLoader {
  return async (_dir, manifest, _tf, ctx) => {
    const { pool, ready } = acquire(ctx)
    await ready
    const model: LoadedModel<ImageInput, ImageResult> = {
      manifest,
      predict: inputs => Promise.all(inputs.map(i => pool.run(op, i.data))),
      // the worker warmed the human models before it reported ready; nsfw loads on a worker's
      // first nsfw job, so one small image per worker (an idle worker takes each) warms it
      async warm () {
        if (op !== 'nsfw') return
        const grey = await sharp({
          create: { width: 64, height: 64, channels: 3, background: { r: 128, g: 128, b: 128 } }
        })
          .png()
          .toBuffer()
        await Promise.all(Array.from({ length: pool.stats().workers }, () => pool.run(op, grey)))
      },
      dispose: release
    }
    return model
  }
}

/** The shared pool, for tests and diagnostics. */
export function imagePool (): ImagePool | null {
  return shared?.pool ?? null
}

export const loadHumanFace = loader('facial_emotion')
export const loadHumanObject = loader('object_recognizer')
export const loadNsfw = loader('nsfw')
