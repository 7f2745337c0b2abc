// The calibration tools training uses: temperature fitting and the expected calibration error.
import t from 'tap'
import { ece, fitTemperature } from '../../../training/metrics.js'
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
  const T = fitTemperature(logits, gold, false)
  t.ok(T > 3 && T < 5, `temperature ${T.toFixed(2)} near 4`)
  const before = ece(logits.map(softmax), gold)
  const after = ece(logits.map((z) => softmax(z.map((v) => v / T))), gold)
  t.ok(before > 0.1, `before ${before.toFixed(3)}`)
  t.ok(after < 0.03, `after ${after.toFixed(3)}`)
})

t.test('independent scores: rows that fit no label count as negatives for every label', async (t) => {
  const logits = [[5, -5], [5, -5], [-5, 5], [5, -5]]
  const gold = [0, -1, 1, -1]
  const T = fitTemperature(logits, gold, true)
  t.ok(T > 1, 'half the confident first-label answers are wrong, so the scores soften')
  t.equal(ece([[0.9, 0.1]], [-1]), 0.9, 'a confident answer for a text no label fits is 0.9 off')
  t.equal(ece([[0.9, 0.1]], [0]), Math.abs(0.9 - 1))
})
