// The calibration tools training uses: temperature fitting and the expected calibration error, and
// the fit of the calibration by input (lib/text/calibration.ts: a temperature by length, known words and parts).
import t from 'tap'
import { ece, fitCalibration, fitInputCalibration } from '../../../training/trainers/scores.js'
import { rng } from '../../../training/trainers/sparse-sgd.js'
import { inputShape, logTemperature, type InputCalibration } from '../../../lib/text/calibration.js'
import { textParts } from '../../../lib/text/cnn/parts.js'
import type { FeatureConfig } from '../../../lib/text/bag/features.js'
import { softmax } from './softmax.js'

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
  'calibration by input of a model that reads a long text in parts: T(x) follows log(parts), ' +
    'texts of one part keep theirs',
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
