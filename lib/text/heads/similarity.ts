// The loader of kind encoder-similarity: two texts' similarity is the cosine of their encoder
// vectors, mapped to [0, 1] by a monotone piecewise-linear map fitted to STS scores (map.json:
// knots of cosine and score). The map keeps the cosine's order, so Spearman's rho is the cosine's.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { LoadedModel, LoaderContext } from '../../serving/loaded-model.js'
import type { ModelManifest } from '../../../schemas/model-manifest.js'
import { encoderOf } from './classifier.js'

export interface Pair {
  a: string
  b: string
  lang?: string
}
export interface SimilarityMap {
  cos: number[]
  score: number[]
}

export function cosine (a: Float32Array, b: Float32Array): number {
  let s = 0
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number)
  return s
}

/** The map at x: linear between knots, flat beyond the first and the last. */
export function mapped (map: SimilarityMap, x: number): number {
  const { cos, score } = map
  if (x <= (cos[0] as number)) return score[0] as number
  for (let i = 1; i < cos.length; i++) {
    const hi = cos[i] as number
    if (x > hi) continue
    const lo = cos[i - 1] as number
    const t = hi === lo ? 1 : (x - lo) / (hi - lo)
    return (score[i - 1] as number) + t * ((score[i] as number) - (score[i - 1] as number))
  }
  return score[score.length - 1] as number
}

export async function loadEncoderSimilarity (
  dir: string,
  manifest: ModelManifest,
  _tf: unknown,
  ctx: LoaderContext
): Promise<LoadedModel<Pair, number>> {
  const encoder = await encoderOf(dir, manifest, ctx)
  const map = JSON.parse(await readFile(join(dir, 'map.json'), 'utf8')) as SimilarityMap
  return {
    manifest,
    async predict (pairs) {
      const [a, b] = await Promise.all([encoder.embed(pairs.map(p => p.a)), encoder.embed(pairs.map(p => p.b))])
      return pairs.map((_, i) => mapped(map, cosine(a[i] as Float32Array, b[i] as Float32Array)))
    },
    async warm () {
      await encoder.embed(['warm up'])
    },
    dispose () {}
  }
}
