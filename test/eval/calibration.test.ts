// The calibration rows of npm run eval: a weighted ECE, and one pooled figure per classifier in
// which every validation set weighs alike whatever its size.
import t from 'tap'
import { eceOf, eceFloor, fitsTemperature } from '../../training/trainers/scores.js'
import { calibrationRow, heldHalf, pooledCalibrationRow } from '../../eval/calibration.js'

t.test('eceOf with weights equals eceOf over repeated rows', async t => {
  const conf = [0.9, 0.6, 0.8, 0.55]
  const right = [true, false, true, true]
  const weighted = eceOf(conf, right, 15, [2, 1, 1, 3])
  const repeated = eceOf([0.9, 0.9, 0.6, 0.8, 0.55, 0.55, 0.55], [true, true, false, true, true, true, true])
  t.ok(Math.abs(weighted - repeated) < 1e-12, `${weighted} vs ${repeated}`)
  t.equal(eceOf(conf, right), eceOf(conf, right, 15, [1, 1, 1, 1]), 'weights of 1 change nothing')
  t.ok(eceFloor(conf, 50, 1, [1, 1, 1, 1]) > 0, 'a floor above 0 on four rows')
})

t.test('heldHalf keeps the rows that did not fit the calibration, in order', async t => {
  const texts = Array.from({ length: 40 }, (_, i) => `text number ${i}`)
  const probs = texts.map((_, i) => [i / 40, 1 - i / 40])
  const gold = texts.map((_, i) => i % 2)
  const half = heldHalf('set', texts, probs, gold)
  const want = texts.map((x, i) => (fitsTemperature(x) ? -1 : i)).filter(i => i >= 0)
  t.ok(want.length > 5 && want.length < 35, 'about half the rows')
  t.same(
    half.probs,
    want.map(i => probs[i])
  )
  t.same(
    half.gold,
    want.map(i => gold[i])
  )
})

t.test('the pooled row weighs each set alike', async t => {
  // a large, perfectly calibrated-looking set (always right at 1.0) and a small, badly calibrated one
  const big = {
    name: 'big',
    probs: Array.from({ length: 900 }, () => [0, 1]),
    gold: Array.from({ length: 900 }, () => 1)
  }
  const small = {
    name: 'small',
    probs: Array.from({ length: 100 }, () => [0, 1]),
    gold: Array.from({ length: 100 }, () => 0)
  }
  const row = pooledCalibrationRow('m v1', [big, small])
  t.ok(row !== undefined)
  t.ok(Math.abs(row!.value - 0.5) < 1e-9, `each set half the weight: ECE ${row!.value}`)
  t.match(row!.dataset, /2 sets, 1000 rows/)
  t.equal(pooledCalibrationRow('m v1', []), undefined, 'no row without sets')
  const one = calibrationRow('m v1', 'small', small)
  t.equal(one.value, 1, 'always wrong at 1.0: ECE 1')
  t.match(one.dataset, /half not used for calibration, 100/)
})
