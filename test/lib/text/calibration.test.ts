// The calibration tools training uses: temperature fitting and the expected calibration error.
import t from 'tap'
import { ece, fitCalibration } from '../../../training/metrics.js'
import { rng } from '../../../training/fasttext.js'

const softmax = (z: number[]) => { const m = Math.max(...z); const e = z.map((v) => Math.exp(v - m)); const s = e.reduce((a, b) => a + b, 0); return e.map((v) => v / s) }

t.test('an overconfident model gets a temperature above 1 that lowers its calibration error', async (t) => {
  // true logits z; the model reports 4z (too sure); labels drawn from softmax(z)
  const rand = rng(3)
  const logits: number[][] = []; const gold: number[] = []
  for (let i = 0; i < 4000; i++) {
    const z = [rand() * 3, rand() * 3, rand() * 3]
    const p = softmax(z)
    const u = rand()
    gold.push(u < p[0]! ? 0 : u < p[0]! + p[1]! ? 1 : 2)
    logits.push(z.map((v) => 4 * v))
  }
  const { temperature: T, bias } = fitCalibration(logits, gold, false)
  t.ok(T > 3 && T < 5, `temperature ${T.toFixed(2)} near 4`)
  const before = ece(logits.map(softmax), gold)
  const after = ece(logits.map((z) => softmax(z.map((v, c) => v / T + bias[c]!))), gold)
  t.ok(before > 0.1, `before ${before.toFixed(3)}`)
  t.ok(after < 0.03, `after ${after.toFixed(3)}`)
})

t.test('independent scores: rows that fit no label count as negatives for every label', async (t) => {
  const logits = [[5, -5], [5, -5], [-5, 5], [5, -5]]
  const gold = [0, -1, 1, -1]
  const T = fitCalibration(logits, gold, true).temperature
  t.ok(T > 1, 'half the confident first-label answers are wrong, so the scores soften')
  t.equal(ece([[0.9, 0.1]], [-1]), 0.9, 'a confident answer for a text no label fits is 0.9 off')
  t.equal(ece([[0.9, 0.1]], [0]), Math.abs(0.9 - 1))
})

t.test('a bias per label undoes the prior shift of class-balanced training', async (t) => {
  // the model's logits favour class 1 by +1.5 beyond the truth (a rare class over-weighted in training)
  const rand = rng(5)
  const logits: number[][] = []; const gold: number[] = []
  for (let i = 0; i < 4000; i++) {
    const z = [rand() * 2, rand() * 2 - 1]
    const p = softmax(z)
    gold.push(rand() < p[0]! ? 0 : 1)
    logits.push([z[0]!, z[1]! + 1.5])
  }
  const { temperature, bias } = fitCalibration(logits, gold, false)
  t.ok(Math.abs(temperature - 1) < 0.2, `temperature ${temperature.toFixed(2)} near 1`)
  t.ok(Math.abs((bias[1]! - bias[0]!) + 1.5) < 0.2, `bias difference ${(bias[1]! - bias[0]!).toFixed(2)} near -1.5`)
  const fixed = logits.map((z) => softmax(z.map((v, c) => v / temperature + bias[c]!)))
  t.ok(ece(fixed, gold) < 0.03 && ece(logits.map(softmax), gold) > 0.1, 'calibration error falls below 0.03')
})

t.test('a label with no held rows keeps a bias of 0', async (t) => {
  const logits = Array.from({ length: 200 }, (_, i) => [i % 2 === 0 ? 2 : -2, 0, 1])
  const gold = logits.map((_, i) => i % 2 === 0 ? 0 : 1)
  const { bias } = fitCalibration(logits, gold, false)
  t.equal(bias[2], 0, 'the third label was never seen: not pushed down')
})
