// The calibration served (lib/text/calibration.ts): scores to logits and back, a classifier's scores with the
// manifest's calibration by input applied, and the calibration by language and its checks.
import t from 'tap'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  inputShape,
  logTemperature,
  recalibrate,
  toLogits,
  type InputCalibration
} from '../../../lib/text/calibration.js'
import { loadTextClassifier } from '../../../lib/text/bag/classifier.js'
import type { FeatureConfig } from '../../../lib/text/bag/features.js'
import { fileIO } from '../../../lib/runtime/tf-io.js'
import { getTf } from '../../../lib/runtime/tf.js'
import type { ModelManifest } from '../../../schemas/model-manifest.js'
import { softmax } from './softmax.js'

t.test('scores to logits and back', async t => {
  const p = [0.7, 0.2, 0.1]
  const params: InputCalibration = {
    method: 'test',
    a: 0,
    b: 0,
    c: 0,
    tokensCentre: 0,
    knownCentre: 0,
    bias: [0, 0, 0]
  }
  const same = recalibrate(p, { logTokens: 3, known: 1 }, params, false)
  t.ok(
    same.every((x, i) => Math.abs(x - p[i]!) < 1e-12),
    'T = 1 and no bias: the scores unchanged'
  )
  const indep = recalibrate([0.9, 0.05, 0.5], { logTokens: 3, known: 1 }, params, true)
  t.ok(Math.abs(indep[0]! - 0.9) < 1e-9 && Math.abs(indep[2]! - 0.5) < 1e-9, 'independent scores unchanged too')
  t.ok(
    toLogits([0, 1], true).every(Number.isFinite) && toLogits([0, 1], false).every(Number.isFinite),
    'scores of 0 and 1 give finite logits'
  )
  const sharp = recalibrate(p, { logTokens: 3, known: 1 }, { ...params, a: Math.log(0.5) }, false)
  t.ok(sharp[0]! > 0.85, `T = 0.5 sharpens: ${sharp[0]!.toFixed(3)}`)
})

t.test("the served scores apply the manifest's calibration by input, each text by its own length", async t => {
  const { tf } = await getTf()
  type Sym = import('@tensorflow/tfjs').SymbolicTensor
  const cfg: FeatureConfig = { buckets: 256, charNgrams: [], wordBigrams: false, maxFeatures: 400, maxChars: 4000 }
  const ids = tf.input({ shape: [null], dtype: 'int32', name: 'ids' })
  const weights = tf.input({ shape: [null], name: 'weights' })
  const emb = tf.layers
    .embedding({
      inputDim: cfg.buckets,
      outputDim: 4,
      name: 'features',
      embeddingsInitializer: tf.initializers.randomNormal({ stddev: 2, seed: 7 })
    })
    .apply(ids) as Sym
  const w3 = tf.layers.reshape({ targetShape: [-1, 1] }).apply(weights) as Sym
  const flat = tf.layers.flatten().apply(tf.layers.dot({ axes: 1, name: 'average' }).apply([emb, w3]) as Sym) as Sym
  const out = tf.layers
    .dense({ units: 3, activation: 'softmax', kernelInitializer: tf.initializers.randomNormal({ stddev: 2, seed: 8 }) })
    .apply(flat) as Sym
  const model = tf.model({ inputs: [ids, weights], outputs: out })
  const dir = await mkdtemp(join(tmpdir(), 'calibration-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  await model.save(fileIO(join(dir, 'model.json')))
  model.dispose()
  await writeFile(join(dir, 'features.json'), JSON.stringify(cfg))
  const manifest = {
    name: 'toy',
    version: 1,
    kind: 'text-classifier',
    labels: ['a', 'b', 'c'],
    outputs: [{ name: 'probabilities', dtype: 'float32', shape: [null, 3] }]
  } as unknown as ModelManifest
  // T(x) = exp(log(1 + tokens) - log(11)): 1 at 10 tokens, below for shorter texts (sharper), above for longer (softer)
  const byInput: InputCalibration = {
    method: 'test',
    a: 0,
    b: 1,
    c: 0,
    tokensCentre: Math.log(11),
    knownCentre: 0,
    bias: [0.2, 0, -0.2]
  }
  const bare = await loadTextClassifier(dir, manifest, tf, { imageMaxPixels: 0 })
  const served = await loadTextClassifier(dir, { ...manifest, calibration: { byInput } } as ModelManifest, tf, {
    imageMaxPixels: 0
  })
  const short = 'zebra'
  const long = Array.from({ length: 60 }, (_, i) => `w${i % 7}`).join(' ')
  const [rs, rl] = (await bare.predict([short, long])) as number[][]
  const [ss, sl] = (await served.predict([short, long])) as number[][]
  t.ok(
    logTemperature(byInput, inputShape(short, cfg)) < 0 && logTemperature(byInput, inputShape(long, cfg)) > 0,
    'short: T < 1; long: T > 1'
  )
  const want = (p: number[], text: string) => recalibrate(p, inputShape(text, cfg), byInput, false)
  t.ok(
    ss!.every((x, i) => Math.abs(x - want(rs!, short)[i]!) < 1e-9),
    'the short text: its own temperature'
  )
  t.ok(
    sl!.every((x, i) => Math.abs(x - want(rl!, long)[i]!) < 1e-9),
    'the long text: its own temperature'
  )
  const top = (p: number[]) => Math.max(...p)
  t.ok(top(sl!) < top(rl!), `the long text's top score softened: ${top(rl!).toFixed(3)} -> ${top(sl!).toFixed(3)}`)
  const [alone] = (await served.predict([long])) as number[][]
  t.same(alone, sl, 'a text alone = in a batch')
  await t.rejects(
    loadTextClassifier(
      dir,
      { ...manifest, calibration: { byInput: { ...byInput, bias: [0, 0] } } } as ModelManifest,
      tf,
      { imageMaxPixels: 0 }
    ),
    /2 label biases for 3 labels/,
    'biases for another number of labels are refused'
  )
  await t.rejects(
    loadTextClassifier(
      dir,
      {
        ...manifest,
        calibration: { byLanguage: { method: 'test', temperature: { es: -2 }, multiLabel: false } }
      } as unknown as ModelManifest,
      tf,
      { imageMaxPixels: 0 }
    ),
    /temperature -2 for es/,
    'a calibration by language that would flip labels is refused at load'
  )
  bare.dispose()
  served.dispose()
})

t.test(
  "calibration by language: a model answers texts of a language with that language's temperature, " +
    'the others as they are',
  async t => {
    const { route } = await import('../../../lib/text/routing.js')
    const { recalibrateLanguage } = await import('../../../lib/text/calibration.js')
    const rows = [
      [0.7, 0.2, 0.1],
      [0.05, 0.15, 0.8]
    ]
    const manifest = {
      name: 'm',
      labels: ['a', 'b', 'c'],
      languages: ['es', 'hi'],
      calibration: { byLanguage: { method: 'test', temperature: { hi: 2.5, es: 1 }, multiLabel: false } }
    } as unknown as ModelManifest
    let calls = 0
    const model = {
      manifest,
      predict: async (texts: string[]) => {
        calls++
        return texts.map((_, i) => rows[i]!)
      },
      dispose: () => {}
    }
    const routed = async (code: string) => {
      const langs = [code, code].map(c => ({ code: c, source: 'given' as const }))
      const out = await route(['x', 'y'], { models: ['m'], served: ['es', 'hi'], langs }, () => model, undefined)
      return out.map(r => r[2] as number[])
    }
    t.same(await routed('es'), rows, 'T = 1: the scores as the model gives them')
    t.same(await routed('de'), rows, 'a language without a temperature: the scores as the model gives them')
    calls = 0
    const hi = await routed('hi')
    t.equal(calls, 1, 'one predict call')
    hi.forEach((p, i) => {
      const want = softmax(rows[i]!.map(q => Math.log(q) / 2.5))
      p.forEach((v, c) => t.ok(Math.abs(v - want[c]!) < 1e-12, `row ${i} label ${c}: ${v} = ${want[c]}`))
      t.equal(p.indexOf(Math.max(...p)), rows[i]!.indexOf(Math.max(...rows[i]!)), 'the top label stays')
      t.ok(Math.max(...p) < Math.max(...rows[i]!), 'a temperature above 1 softens')
      t.ok(Math.abs(p.reduce((a, b) => a + b, 0) - 1) < 1e-12)
    })
    // independent scores: each label's logit divided alone
    const sig = recalibrateLanguage([[0.9, 0.2]], 'hi', {
      method: 'test',
      temperature: { hi: 2 },
      multiLabel: true
    })[0]!
    t.ok(Math.abs(sig[0]! - 1 / (1 + Math.exp(-Math.log(9) / 2))) < 1e-9)
    t.ok(Math.abs(sig[1]! - 1 / (1 + Math.exp(-Math.log(0.25) / 2))) < 1e-9)
  }
)

t.test(
  'calibration by language: a temperature that is not a finite positive number, or for the other kind of scores, is ' +
    'refused; a language is looked up as its own key only',
  async t => {
    const { languageCalibrationProblem, languageTemperature } = await import('../../../lib/text/calibration.js')
    const ok = { method: 'test', temperature: { hi: 2.5, es: 0.8 }, multiLabel: false }
    t.equal(languageCalibrationProblem(ok, false), undefined)
    t.match(languageCalibrationProblem(ok, true), /for softmax scores/)
    t.match(languageCalibrationProblem({ ...ok, temperature: { hi: -1 } }, false), /temperature -1 for hi/)
    t.match(languageCalibrationProblem({ ...ok, temperature: { hi: 0 } }, false), /temperature 0 for hi/)
    t.match(languageCalibrationProblem({ ...ok, temperature: { hi: Number.NaN } }, false), /temperature NaN for hi/)
    t.equal(languageTemperature(ok, 'hi'), 2.5)
    t.equal(languageTemperature(ok, 'constructor'), 1, 'not an inherited property')
    t.equal(languageTemperature(ok, 'de'), 1)
    t.equal(languageTemperature(undefined, 'hi'), 1)
  }
)
