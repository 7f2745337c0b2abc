// The loader of kind blend: a classifier whose scores are the weighted geometric mean of other
// models' scores (log-linear pooling), renormalised; manifest.blend names the members and weights.
// The members are loaded first (lib/serving/registry.ts loads blends last) and keep running where they run:
// a text-cnn member in the text workers, an encoder head on the main thread.
import type { LoadedModel, LoaderContext } from '../../serving/loaded-model.js'
import type { ModelManifest } from '../../../schemas/model-manifest.js'

/**
 * manifest.blend: the operation whose recipe scores it, the members' folder names and weights (summing
 * to 1), and the temperature the pooled log scores are divided by (fitted by npm run train -- <blend>)
 */
export interface BlendSpec {
  op: string
  members: Array<{ model: string; weight: number }>
  temperature?: number
}

/** A blend's spec, or undefined for a model of another kind. */
export const blendOf = (manifest: ModelManifest): BlendSpec | undefined =>
  (manifest as ModelManifest & { blend?: BlendSpec }).blend

/** Scores of one text: exp of the weighted sum of each member's log scores over T, renormalised. */
export function pool (scores: number[][], weights: number[], temperature = 1): number[] {
  const labels = (scores[0] as number[]).length
  const logs = new Array<number>(labels).fill(0)
  scores.forEach((s, m) => {
    for (let k = 0; k < labels; k++) logs[k]! += (weights[m] as number) * Math.log(Math.max(1e-12, s[k] as number))
  })
  const top = Math.max(...logs)
  const e = logs.map(x => Math.exp((x - top) / temperature))
  const sum = e.reduce((a, b) => a + b, 0)
  return e.map(x => x / sum)
}

export async function loadBlend (
  _dir: string,
  manifest: ModelManifest,
  _tf: unknown,
  ctx: LoaderContext
): Promise<LoadedModel<string, number[]>> {
  const spec = blendOf(manifest)
  if (spec === undefined) throw new Error(`blend ${manifest.name}: its manifest has no blend`)
  const members = spec.members.map(({ model }) => {
    const m = ctx.model?.(model)
    if (m === undefined) throw new Error(`blend ${manifest.name}: its member ${model} is not loaded`)
    // each member's labels in the blend's order
    const order = manifest.labels.map(l => m.manifest.labels.indexOf(l))
    const labels = manifest.labels.join(', ')
    if (order.includes(-1)) throw new Error(`blend ${manifest.name}: ${model} lacks one of ${labels}`)
    return { model: m as LoadedModel<string, number[]>, order }
  })
  const weights = spec.members.map(m => m.weight)
  const predict = async (texts: string[]): Promise<number[][]> => {
    const each = await Promise.all(
      members.map(async ({ model, order }) => {
        const rows = await model.predict(texts)
        return rows.map(r => order.map(k => r[k] as number))
      })
    )
    return texts.map((_, i) =>
      pool(
        each.map(rows => rows[i] as number[]),
        weights,
        spec.temperature
      )
    )
  }
  return {
    manifest,
    predict,
    async warm () {
      await predict(['warm up'])
    },
    dispose () {}
  }
}
