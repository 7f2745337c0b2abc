// The keyphrase scorer that training/recipes/keywords.ts trains: a small dense TF.js network over the
// standardised candidate features, and its F1@10 on the validation documents after an epoch.
import type { Sequential, Tensor } from '@tensorflow/tfjs'
import type { TF } from '../../lib/runtime/tf.js'
import { featurise, rankCandidates, type KeywordTables } from '../../lib/text/keywords/features.js'
import { average, scoreDoc, type KeyDoc } from '../readers/keywords.js'

/**
 * Dense relu layers of `hidden` units over `F` features, then one sigmoid unit (`score`), with seeded
 * initial weights; Adam at `lr` on binary cross-entropy.
 */
export function scorer (tf: TF, F: number, hidden: number[], lr: number, seed: number): Sequential {
  const model = tf.sequential()
  hidden.forEach((units, k) =>
    model.add(
      tf.layers.dense({
        units,
        activation: 'relu',
        kernelInitializer: tf.initializers.glorotUniform({ seed: seed + k }),
        ...(k === 0 ? { inputShape: [F] } : {})
      })
    )
  )
  model.add(
    tf.layers.dense({
      units: 1,
      activation: 'sigmoid',
      kernelInitializer: tf.initializers.glorotUniform({ seed: seed + 99 }),
      name: 'score'
    })
  )
  model.compile({ optimizer: tf.train.adam(lr), loss: 'binaryCrossentropy' })
  return model
}

/**
 * The validation of `model`: the macro-averaged F1@10 of its ranking of each of `val`'s candidates, their
 * features from `full` standardised by `mean` and `std`.
 */
export function validator (
  tf: TF,
  model: Sequential,
  val: KeyDoc[],
  full: KeywordTables,
  mean: number[],
  std: number[]
): () => { p: number; r: number; f1: number } {
  const F = mean.length
  const valFeats = val.map(d =>
    featurise(d.a, full).map(r => Array.from(r, (v, j) => (v - (mean[j] as number)) / (std[j] as number)))
  )
  const rank = (d: KeyDoc, scores: ArrayLike<number>) => rankCandidates(d.a, scores).map(r => r.candidate.key)
  return function validate (): { p: number; r: number; f1: number } {
    const flat = valFeats.flat()
    const all = tf.tidy(() =>
      (
        model.predict(
          tf.tensor2d(flat.length ? flat : [new Array<number>(F).fill(0)], [Math.max(1, flat.length), F])
        ) as Tensor
      ).dataSync()
    )
    let at = 0
    return average(
      val.map((d, i) => {
        const n = (valFeats[i] as number[][]).length
        const s = all.slice(at, at + n)
        at += n
        return scoreDoc(rank(d, s), d.gold)
      })
    )
  }
}
