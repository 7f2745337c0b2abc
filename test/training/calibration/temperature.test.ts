// Temperature scaling after training (training/calibration/temperature.ts): fitted on the calibration
// half of the validation rows only, it cools an overconfident model and, without a bias per label,
// never changes a text's top label.
import t from 'tap'
import type { FeatureConfig } from '../../../lib/text/bag/features.js'
import { fitTemperatureOn, type HeldRow } from '../../../training/calibration/temperature.js'
import { predictAll } from '../../../training/trainers/embedding-bag.js'
import { ece, fitsTemperature } from '../../../training/trainers/scores.js'
import { rng, trainSparseSgd } from '../../../training/trainers/sparse-sgd.js'

const cfg: FeatureConfig = { buckets: 1 << 12, charNgrams: [], wordBigrams: false, maxFeatures: 50, maxChars: 200 }
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'sigma']
/** two-word texts whose label follows their first word's parity, a third of them flipped (noise) */
function rows (n: number, seed: number): HeldRow[] {
  const rand = rng(seed)
  return Array.from({ length: n }, (_, i) => {
    const a = Math.floor(rand() * WORDS.length)
    const text = `${WORDS[a]} ${WORDS[Math.floor(rand() * WORDS.length)]} ${i}`
    return { text, label: rand() < 1 / 3 ? 1 - (a % 2) : a % 2 }
  })
}
// many epochs at a high rate on noisy labels (every text has a word of its own): an overconfident model
const raw = trainSparseSgd(
  rows(600, 1),
  cfg,
  { dim: 8, epochs: 30, lr: 1, seed: 2, balance: false, classes: 2, quiet: true },
  () => ({ name: 'x', value: 0 })
)
const sets = [rows(400, 3), rows(200, 4)]

t.test('an overconfident model gets a temperature above 1 and a smaller calibration error', async t => {
  const fitted = fitTemperatureOn(raw, sets, cfg, false)
  t.ok(fitted.temperature > 1.2, `temperature ${fitted.temperature.toFixed(3)}`)
  t.equal(fitted.rows, sets.flat().filter(r => fitsTemperature(r.text)).length, 'the calibration half only')
  t.ok(fitted.rows > 200 && fitted.rows < 400)
  const report = sets.flat().filter(r => !fitsTemperature(r.text))
  const before = ece(predictAll(raw, report.map(r => r.text), cfg), report.map(r => r.label))
  const after = ece(predictAll(fitted.weights, report.map(r => r.text), cfg), report.map(r => r.label))
  t.ok(after < before, `reported half: ECE ${before.toFixed(3)} -> ${after.toFixed(3)}`)
  t.ok(fitted.bias.every(b => Number(b.toFixed(4)) === b), 'biases kept to 4 decimals')
})

t.test('a temperature alone changes no top label', async t => {
  const fitted = fitTemperatureOn(raw, sets, cfg, false, undefined, false)
  t.same(fitted.bias, [0, 0])
  const texts = sets.flat().map(r => r.text)
  const top = (p: number[][]) => p.map(s => (s[1]! > s[0]! ? 1 : 0))
  t.same(top(predictAll(fitted.weights, texts, cfg)), top(predictAll(raw, texts, cfg)))
})

t.test('a softmax fits no row that no label fits', async t => {
  const none = sets[0]!.map(r => ({ text: r.text, label: -1 }))
  const fitted = fitTemperatureOn(raw, [sets[1]!, none], cfg, false)
  t.equal(fitted.rows, sets[1]!.filter(r => fitsTemperature(r.text)).length)
})
