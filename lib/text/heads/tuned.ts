// The loader of kind encoder-tuned-head: a classifier whose head is the encoder's top layers, tuned on the
// op's rows, and a linear layer. The shared encoder gives the states of every token in the inner layer the
// manifest's `tuned.encoderOutput` names; head.onnx (training/encoder/train_tuned_head.py) runs the tuned
// layers over them, mean-pools the tokens and gives the labels' logits, which are divided by the fitted
// temperature and go through a softmax.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as ort from 'onnxruntime-node'
import type { LoadedModel, LoaderContext } from '../../serving/loaded-model.js'
import type { ModelManifest } from '../../../schemas/model-manifest.js'
import { int8Saturates, type TokenPass } from '../encoder/encoder.js'
import { withUnsignedWeights } from '../encoder/graph.js'
import { encoderOf } from './classifier.js'
import { softmax } from './head.js'

/** manifest.tuned: the encoder output the head reads, and the temperature of its logits */
export interface TunedSettings {
  encoderOutput: string
  temperature: number
}

export function tunedOf (manifest: ModelManifest): TunedSettings {
  const s = (manifest as ModelManifest & { tuned?: TunedSettings }).tuned
  if (s === undefined || typeof s.encoderOutput !== 'string' || !(s.temperature > 0)) {
    throw new Error(`${manifest.name}: the manifest has no tuned.encoderOutput and tuned.temperature`)
  }
  return s
}

export async function loadEncoderTunedHead (
  dir: string,
  manifest: ModelManifest,
  _tf: unknown,
  ctx: LoaderContext
): Promise<LoadedModel<string, number[]>> {
  const encoder = await encoderOf(dir, manifest, ctx)
  const settings = tunedOf(manifest)
  const bytes = await readFile(join(dir, 'head.onnx'))
  const graph = int8Saturates() ? withUnsignedWeights(bytes) : bytes
  // one thread: right after a pass the encoder's threads still spin, and a second thread of the head's waited
  // on them (one short text took 11.5 ms in process where it takes 5.5; docs/models/sentiment-multilingual.md)
  const options = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all' as const }
  const head = await ort.InferenceSession.create(graph, options)
  const labels = manifest.labels.length

  async function logits ({ batch, states }: TokenPass): Promise<Float32Array> {
    const shape = [batch.rows, batch.width]
    const mask = Float32Array.from(batch.mask, Number)
    const out = await head.run({
      states: new ort.Tensor('float32', states, [...shape, encoder.dims]),
      mask: new ort.Tensor('float32', mask, shape)
    })
    const z = out.logits
    if (z === undefined || z.data.length !== batch.rows * labels) {
      throw new Error(`${manifest.name}: the head gave no ${labels} logits a text`)
    }
    return z.data as Float32Array
  }

  return {
    manifest,
    async predict (texts) {
      const scores = new Array<number[]>(texts.length)
      for (const pass of await encoder.tokenStates(texts, settings.encoderOutput)) {
        const z = await logits(pass)
        pass.texts.forEach((t, row) => {
          const own = Array.from(z.subarray(row * labels, (row + 1) * labels), v => v / settings.temperature)
          scores[t] = softmax(own)
        })
      }
      return scores
    },
    dispose () {
      void head.release()
    }
  }
}
