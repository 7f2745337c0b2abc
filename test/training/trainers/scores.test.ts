// The scores training and npm run eval share (training/trainers/scores.ts), on hand-made arrays:
// the confusion matrix and what is read from it, the expected calibration error and its floor, and
// the hash that halves the validation rows.
import t from 'tap'
import {
  accuracy,
  argmax,
  confusion,
  ece,
  eceFloor,
  eceOf,
  f1,
  fitsTemperature,
  macroF1,
  macroRecall,
  precision,
  recall
} from '../../../training/trainers/scores.js'

const close = (a: number, b: number) => Math.abs(a - b) < 1e-12

// gold 0 0 0 1 1 2 read as 0 0 1 1 2 2
const m = confusion([0, 0, 0, 1, 1, 2], [0, 0, 1, 1, 2, 2], 3)

t.test('argmax: the first of the highest', async t => {
  t.equal(argmax([0.1, 0.7, 0.2]), 1)
  t.equal(argmax([0.4, 0.4, 0.2]), 0)
  t.equal(argmax([-3]), 0)
})

t.test('confusion: rows by gold label, columns by prediction', async t => {
  t.same(m, [
    [2, 1, 0],
    [0, 1, 1],
    [0, 0, 1]
  ])
})

t.test('recall, precision and F1 of each label', async t => {
  t.ok(close(recall(m, 0), 2 / 3))
  t.equal(recall(m, 1), 0.5)
  t.equal(recall(m, 2), 1)
  t.equal(precision(m, 0), 1)
  t.equal(precision(m, 1), 0.5)
  t.equal(precision(m, 2), 0.5)
  t.ok(close(f1(m, 0), 0.8))
  t.equal(f1(m, 1), 0.5)
  t.ok(close(f1(m, 2), 2 / 3))
})

t.test('a label never seen nor predicted scores 0, not NaN', async t => {
  const empty = confusion([0, 1], [0, 1], 3)
  t.equal(recall(empty, 2), 0)
  t.equal(precision(empty, 2), 0)
  t.equal(f1(empty, 2), 0)
})

t.test('macro scores average over the labels asked for; accuracy is the diagonal share', async t => {
  t.ok(close(macroF1(m, [0, 1, 2]), (0.8 + 0.5 + 2 / 3) / 3))
  t.ok(close(macroF1(m, [1]), 0.5))
  t.ok(close(macroRecall(m, [0, 1, 2]), (2 / 3 + 0.5 + 1) / 3))
  t.ok(close(accuracy(m), 4 / 6))
})

t.test('ece: the gap between confidence and hits in each bin, averaged over texts', async t => {
  const probs = [
    [0.9, 0.1],
    [0.8, 0.2],
    [0.3, 0.7],
    [0.6, 0.4]
  ]
  const gold = [0, 1, 1, 0]
  // each text alone in its bin: 0.1, 0.8, 0.3 and 0.4 off
  t.ok(close(ece(probs, gold), (0.1 + 0.8 + 0.3 + 0.4) / 4))
  // one bin: confidences sum to 3.0 and 3 are right
  t.ok(close(ece(probs, gold, 1), 0))
  t.ok(close(ece([[0.9, 0.1]], [-1]), 0.9), 'a text no label fits is never right')
})

t.test('eceOf: a confidence of 1 lands in the last bin; no answer, no error', async t => {
  t.equal(eceOf([1, 1], [true, true]), 0)
  t.equal(eceOf([1, 0], [false, false]), 0.5)
  t.equal(eceOf([], []), 0)
  t.equal(eceOf([0.7], [true], 15, [0]), 0, 'a weight of 0 counts for nothing')
})

t.test('eceFloor: 0 for certain answers, smaller on more rows, the same for the same seed', async t => {
  t.equal(eceFloor([1, 1, 1]), 0)
  const few = eceFloor(new Array<number>(20).fill(0.7))
  const many = eceFloor(new Array<number>(2000).fill(0.7))
  t.ok(few > many, `${few} on 20 rows > ${many} on 2000`)
  t.ok(many < 0.03)
  t.equal(eceFloor([0.6, 0.8, 0.9], 50, 7), eceFloor([0.6, 0.8, 0.9], 50, 7))
})

t.test('fitsTemperature: about half the texts, each always on the same side', async t => {
  const texts = Array.from({ length: 2000 }, (_, i) => `validation text ${i}`)
  const fit = texts.filter(fitsTemperature).length
  t.ok(fit > 900 && fit < 1100, `${fit} of 2000`)
  t.same(texts.map(fitsTemperature), texts.map(fitsTemperature))
})
