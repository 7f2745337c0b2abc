// The nsfw classifier for /v4/nsfw: nsfwjs's MobileNetV2 (224x224; Drawing, Hentai, Neutral, Porn,
// Sexy), whose weights ship inside the npm package as a base64 module. Only that model is imported
// (the package's default entry would import all three, 41 MB of base64). It runs in the image
// workers on the project's TF.js (wasm backend), loaded on a worker's first nsfw job.
import type { TF } from '../runtime/tf.js'
import type { Decoded } from './decode.js'
import type { NsfwResult } from './types.js'

/** classes counted as not safe for work */
export const UNSAFE = ['Hentai', 'Porn', 'Sexy'] as const
/** "not safe" when the unsafe classes' summed probability reaches this. Chosen on the project's own
 * ordinary photos (docs/models/nsfw.md): at 0.5, 12 of 126 were called unsafe (close-up grey FER
 * faces read as Porn 0.5-0.8, a banjo player and two COCO people photos as Sexy); at 0.85, 2. */
export const THRESHOLD = 0.85

interface Net {
  classify(img: unknown, top?: number): Promise<Array<{ className: string; probability: number }>>
}

let net: Promise<Net> | null = null

export function loadNsfw (): Promise<Net> {
  net ??= (async () => {
    const { load } = await import('nsfwjs/core')
    const { MobileNetV2Model } = await import('nsfwjs/models/mobilenet_v2')
    // nsfwjs announces its model on the console; the service's log is JSON only
    const info = console.info
    console.info = () => {}
    try {
      return (await load('MobileNetV2', { modelDefinitions: [MobileNetV2Model] })) as unknown as Net
    } finally {
      console.info = info
    }
  })()
  return net
}

/** Classifies decoded RGB pixels. */
export async function classifyNsfw (tf: TF, img: Decoded): Promise<NsfwResult> {
  const model = await loadNsfw()
  const input = tf.tensor3d(img.data, [img.height, img.width, 3], 'int32')
  try {
    const classes = await model.classify(input, 5)
    const unsafe = classes
      .filter(c => (UNSAFE as readonly string[]).includes(c.className))
      .reduce((a, c) => a + c.probability, 0)
    const p = Math.min(1, Math.max(0, unsafe))
    return unsafe >= THRESHOLD
      ? { output: 'not safe to open at work', prob: p, classes }
      : { output: 'safe to open at work', prob: 1 - p, classes }
  } finally {
    input.dispose()
  }
}
