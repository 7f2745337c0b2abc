// The calibration tools training uses: temperature fitting and the expected calibration error;
// the calibration by input (lib/text/calibration.ts): its fit, and the served scores applying it.
import t from 'tap'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ece, fitCalibration, fitInputCalibration } from '../../../training/trainers/metrics.js'
import { rng } from '../../../training/trainers/sparse-sgd.js'
import {
  inputShape,
  logTemperature,
  recalibrate,
  toLogits,
  type InputCalibration
} from '../../../lib/text/calibration.js'
import { loadTextClassifier } from '../../../lib/text/bag/classifier.js'
import { textParts } from '../../../lib/text/cnn/parts.js'
import type { FeatureConfig } from '../../../lib/text/bag/features.js'
import { fileIO } from '../../../lib/runtime/tf-io.js'
import { getTf } from '../../../lib/runtime/tf.js'
import type { ModelManifest } from '../../../schemas/model-manifest.js'

const softmax = (z: number[]) => {
  const m = Math.max(...z)
  const e = z.map(v => Math.exp(v - m))
  const s = e.reduce((a, b) => a + b, 0)
  return e.map(v => v / s)
}

t.test('an overconfident model gets a temperature above 1 that lowers its calibration error', async t => {
  // true logits z; the model reports 4z (too sure); labels drawn from softmax(z)
  const rand = rng(3)
  const logits: number[][] = []
  const gold: number[] = []
  for (let i = 0; i < 4000; i++) {
    const z = [rand() * 3, rand() * 3, rand() * 3]
    const p = softmax(z)
    const u = rand()
    gold.push(u < p[0]! ? 0 : u < p[0]! + p[1]! ? 1 : 2)
    logits.push(z.map(v => 4 * v))
  }
  const { temperature: T, bias } = fitCalibration(logits, gold, false)
  t.ok(T > 3 && T < 5, `temperature ${T.toFixed(2)} near 4`)
  const before = ece(logits.map(softmax), gold)
  const after = ece(
    logits.map(z => softmax(z.map((v, c) => v / T + bias[c]!))),
    gold
  )
  t.ok(before > 0.1, `before ${before.toFixed(3)}`)
  t.ok(after < 0.03, `after ${after.toFixed(3)}`)
})

t.test('independent scores: rows that fit no label count as negatives for every label', async t => {
  const logits = [
    [5, -5],
    [5, -5],
    [-5, 5],
    [5, -5]
  ]
  const gold = [0, -1, 1, -1]
  const T = fitCalibration(logits, gold, true).temperature
  t.ok(T > 1, 'half the confident first-label answers are wrong, so the scores soften')
  t.equal(ece([[0.9, 0.1]], [-1]), 0.9, 'a confident answer for a text no label fits is 0.9 off')
  t.equal(ece([[0.9, 0.1]], [0]), Math.abs(0.9 - 1))
})

t.test('a bias per label undoes the prior shift of class-balanced training', async t => {
  // the model's logits favour class 1 by +1.5 beyond the truth (a rare class over-weighted in training)
  const rand = rng(5)
  const logits: number[][] = []
  const gold: number[] = []
  for (let i = 0; i < 4000; i++) {
    const z = [rand() * 2, rand() * 2 - 1]
    const p = softmax(z)
    gold.push(rand() < p[0]! ? 0 : 1)
    logits.push([z[0]!, z[1]! + 1.5])
  }
  const { temperature, bias } = fitCalibration(logits, gold, false)
  t.ok(Math.abs(temperature - 1) < 0.2, `temperature ${temperature.toFixed(2)} near 1`)
  t.ok(Math.abs(bias[1]! - bias[0]! + 1.5) < 0.2, `bias difference ${(bias[1]! - bias[0]!).toFixed(2)} near -1.5`)
  const fixed = logits.map(z => softmax(z.map((v, c) => v / temperature + bias[c]!)))
  t.ok(ece(fixed, gold) < 0.03 && ece(logits.map(softmax), gold) > 0.1, 'calibration error falls below 0.03')
})

t.test('a label with no held rows keeps a bias of 0', async t => {
  const logits = Array.from({ length: 200 }, (_, i) => [i % 2 === 0 ? 2 : -2, 0, 1])
  const gold = logits.map((_, i) => (i % 2 === 0 ? 0 : 1))
  const { bias } = fitCalibration(logits, gold, false)
  t.equal(bias[2], 0, 'the third label was never seen: not pushed down')
})

t.test('calibration by input recovers a temperature that depends on length', async t => {
  // true logits z; the model reports z / T(x) with log T(x) = 0.3 - 0.8 u (u: centred log length),
  // so it is too unsure of long texts and too sure of short ones; labels drawn from softmax(z)
  const rand = rng(11)
  const logits: number[][] = []
  const gold: number[] = []
  const shapes: Array<{ u: number; k: number }> = []
  for (let i = 0; i < 4000; i++) {
    const u = rand() * 4 - 2
    const z = [rand() * 4, rand() * 4, rand() * 4]
    const p = softmax(z)
    const r = rand()
    gold.push(r < p[0]! ? 0 : r < p[0]! + p[1]! ? 1 : 2)
    const T = Math.exp(0.3 - 0.8 * u)
    logits.push(z.map(v => v / T))
    shapes.push({ u, k: 0 })
  }
  const f = fitInputCalibration(logits, shapes, gold, false, { useKnown: false, steps: 1000 })
  // the fit's T undoes the model's: log T = -(0.3 - 0.8 u)
  t.ok(Math.abs(f.a + 0.3) < 0.1, `a ${f.a.toFixed(3)} near -0.3`)
  t.ok(Math.abs(f.b - 0.8) < 0.1, `b ${f.b.toFixed(3)} near 0.8`)
  t.equal(f.c, 0, 'c kept at 0')
  t.ok(
    f.bias.every(b => Math.abs(b) < 0.1),
    `biases near 0: ${f.bias.map(b => b.toFixed(2)).join(' ')}`
  )
  const after = logits.map((z, i) => softmax(z.map((v, c) => v * Math.exp(-(f.a + f.b * shapes[i]!.u)) + f.bias[c]!)))
  // one temperature for all: the best it can do
  const one = fitCalibration(logits, gold, false)
  const global = logits.map(z => softmax(z.map((v, c) => v / one.temperature + one.bias[c]!)))
  const longs = logits.map((_, i) => i).filter(i => shapes[i]!.u > 1)
  const pick = (ps: number[][]) => longs.map(i => ps[i]!)
  t.ok(
    ece(
      pick(global),
      longs.map(i => gold[i]!)
    ) > 0.08,
    `one temperature: long texts ${ece(
      pick(global),
      longs.map(i => gold[i]!)
    ).toFixed(3)} off`
  )
  t.ok(
    ece(
      pick(after),
      longs.map(i => gold[i]!)
    ) < 0.04,
    `by input: long texts ${ece(
      pick(after),
      longs.map(i => gold[i]!)
    ).toFixed(3)} off`
  )
})

t.test(
  'calibration by input of a model that reads a long text in parts: T(x) follows log(parts), texts of one part keep theirs',
  async t => {
    // the model reports z / T with log T = 0.6 log(parts) (the mean of its parts' logits is too soft)
    const rand = rng(17)
    const logits: number[][] = []
    const gold: number[] = []
    const shapes: Array<{ u: number; k: number; q: number }> = []
    for (let i = 0; i < 4000; i++) {
      const q = i % 2 === 0 ? 0 : Math.log(2 + Math.floor(rand() * 10))
      const z = [rand() * 4, rand() * 4, rand() * 4]
      const p = softmax(z)
      const r = rand()
      gold.push(r < p[0]! ? 0 : r < p[0]! + p[1]! ? 1 : 2)
      logits.push(z.map(v => v / Math.exp(0.6 * q)))
      shapes.push({ u: rand() - 0.5, k: 0, q })
    }
    const f = fitInputCalibration(logits, shapes, gold, false, { useKnown: false, steps: 1000 })
    t.ok(Math.abs(f.g + 0.6) < 0.1, `g ${f.g.toFixed(3)} near -0.6`)
    t.ok(Math.abs(f.a) < 0.1 && Math.abs(f.b) < 0.1, `a ${f.a.toFixed(3)} and b ${f.b.toFixed(3)} near 0`)
    const whole = fitInputCalibration(
      logits,
      shapes.map(x => ({ ...x, q: 0 })),
      gold,
      false,
      { useKnown: false, steps: 50 }
    )
    t.equal(whole.g, 0, 'no text of several parts: g stays 0')
    const params: InputCalibration = {
      method: 'test',
      a: 0,
      b: 0,
      c: 0,
      g: -0.6,
      tokensCentre: 0,
      knownCentre: 0,
      bias: [0, 0, 0]
    }
    t.equal(logTemperature(params, { logTokens: 3, known: 1 }), 0, 'a text of one part: log(parts) 0')
    t.ok(
      Math.abs(logTemperature(params, { logTokens: 3, known: 1, logParts: Math.log(4) }) + 0.6 * Math.log(4)) < 1e-12,
      'four parts: -0.6 log 4'
    )
    const cfg: FeatureConfig = { buckets: 256, charNgrams: [], wordBigrams: false, maxFeatures: 400, maxChars: 4000 }
    const parts = { words: 5, maxChars: 4000 }
    t.equal(
      inputShape('one two three', cfg, undefined, textParts('one two three', parts).length).logParts,
      undefined,
      'a short text: one part'
    )
    const long = 'one two three four. five six seven eight. nine ten eleven.'
    t.equal(
      inputShape(long, cfg, undefined, textParts(long, parts).length).logParts,
      Math.log(3),
      'a long text: log of its parts'
    )
    t.equal(
      inputShape(long, cfg, undefined, 3).logTokens,
      inputShape(long, cfg).logTokens,
      'its tokens counted as before'
    )
  }
)

t.test('calibration by input: independent scores, a bias that never pushes down a label without rows', async t => {
  const rand = rng(13)
  const logits: number[][] = []
  const gold: number[] = []
  const shapes: Array<{ u: number; k: number }> = []
  for (let i = 0; i < 400; i++) {
    logits.push([rand() * 4 - 2, rand() * 4 - 2, -3])
    gold.push(i % 2)
    shapes.push({ u: rand() - 0.5, k: rand() - 0.5 })
  }
  const soft = fitInputCalibration(logits, shapes, gold, false, { steps: 200 })
  t.equal(soft.bias[2], 0, 'the label without rows keeps 0')
  t.ok(Math.abs(soft.bias[0]! + soft.bias[1]!) < 1e-9, 'the others stay centred on 0')
  t.equal(soft.e, 0, 'a softmax has no shift')
  const multi = fitInputCalibration(logits, shapes, gold, true, { steps: 200, topOnly: true, labelBias: false })
  t.same(multi.bias, [0, 0, 0], 'no bias per label when asked')
  t.not(multi.e, 0, 'independent scores: a shift of every label')
})

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
  "calibration by language: a model answers texts of a language with that language's temperature, the others as they are",
  async t => {
    const { forLanguage } = await import('../../../lib/http/lang-route.js')
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
    t.equal(forLanguage(model, 'es'), model, 'T = 1: the model itself')
    t.equal(forLanguage(model, 'de'), model, 'a language without a temperature: the model itself')
    const hi = (await forLanguage(model, 'hi').predict(['x', 'y'])) as number[][]
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
  'calibration by language: a temperature that is not a finite positive number, or for the other kind of scores, is refused; a language is looked up as its own key only',
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
