// The sparse SGD trainer (training/trainers/sparse-sgd.ts) and the embedding-bag model it trains
// (training/trainers/embedding-bag.ts): its seeded generator, and a tiny separable problem learnt with
// a softmax and with independent sigmoids.
import t from 'tap'
import type { FeatureConfig } from '../../../lib/text/bag/features.js'
import { rng, shuffle, trainSparseSgd, type Example, type TrainOptions } from '../../../training/trainers/sparse-sgd.js'
import { hiddenWidth, logitsAll, predictAll, withTemperature } from '../../../training/trainers/embedding-bag.js'

const cfg: FeatureConfig = { buckets: 1 << 12, charNgrams: [], wordBigrams: false, maxFeatures: 50, maxChars: 200 }
const WORDS = [
  ['sunny', 'bright', 'warm', 'clear'],
  ['rainy', 'wet', 'grey', 'stormy'],
  ['snowy', 'icy', 'frozen', 'white']
]
const FILLER = ['today', 'the', 'sky', 'is', 'very', 'so']
/** texts of two of a class's words among filler words, labelled by that class */
function rows (n: number, seed: number): Example[] {
  const rand = rng(seed)
  const pick = (xs: string[]) => xs[Math.floor(rand() * xs.length)] as string
  return Array.from({ length: n }, (_, i) => {
    const label = i % 3
    const words = WORDS[label] as string[]
    return { text: [pick(FILLER), pick(words), pick(FILLER), pick(words)].join(' '), label }
  })
}
const opts: TrainOptions = { dim: 8, epochs: 4, lr: 0.5, seed: 1, balance: true, classes: 3, quiet: true }
const held = rows(60, 99)
const right = (p: number[][]) => p.filter((s, i) => s.indexOf(Math.max(...s)) === held[i]!.label).length

t.test('rng: the same seed gives the same numbers, all in [0, 1)', async t => {
  const a = rng(42)
  const b = rng(42)
  const xs = Array.from({ length: 1000 }, () => a())
  t.same(
    xs,
    Array.from({ length: 1000 }, () => b())
  )
  t.ok(xs.every(x => x >= 0 && x < 1))
  t.not(rng(43)(), xs[0], 'another seed, other numbers')
  t.ok(Math.abs(xs.reduce((s, x) => s + x, 0) / xs.length - 0.5) < 0.05, 'mean near 0.5')
})

t.test('shuffle: a permutation in place, the same for the same seed', async t => {
  const xs = Array.from({ length: 50 }, (_, i) => i)
  const out = shuffle(xs, rng(5))
  t.equal(out, xs, 'in place')
  t.same([...out].sort((a, b) => a - b), Array.from({ length: 50 }, (_, i) => i))
  t.not(out.join(','), Array.from({ length: 50 }, (_, i) => i).join(','), 'the order changed')
  t.same(
    shuffle(Array.from({ length: 50 }, (_, i) => i), rng(5)),
    out
  )
})

t.test('softmax: a separable problem is learnt, validation runs once an epoch', async t => {
  const seen: number[] = []
  const w = trainSparseSgd(rows(300, 1), cfg, opts, w => {
    seen.push(right(predictAll(w, held.map(r => r.text), cfg)))
    return { name: 'right', value: seen.at(-1) as number }
  })
  t.equal(seen.length, opts.epochs)
  t.equal(w.classes, 3)
  t.equal(hiddenWidth(w), opts.dim, 'no word vectors: the bag alone')
  const p = predictAll(w, held.map(r => r.text), cfg)
  t.equal(right(p), held.length, 'every held text right')
  t.ok(p.every(s => Math.abs(s.reduce((a, b) => a + b, 0) - 1) < 1e-5), 'each row sums to 1')
  t.same(
    trainSparseSgd(rows(300, 1), cfg, opts, () => ({ name: 'x', value: 0 })).E,
    w.E,
    'the same seed trains the same weights'
  )
})

t.test('multiLabel: independent sigmoids, a row of no class (-1) lowers every score', async t => {
  const none = Array.from({ length: 100 }, (_, i) => ({ text: `${FILLER[i % 6]} ${FILLER[(i + 2) % 6]}`, label: -1 }))
  const noLog = () => ({ name: 'x', value: 0 })
  const w = trainSparseSgd([...rows(300, 2), ...none], cfg, { ...opts, multiLabel: true }, noLog)
  const p = predictAll(w, held.map(r => r.text), cfg)
  t.equal(right(p), held.length)
  t.ok(
    p.every((s, i) => (s[held[i]!.label] as number) > 0.5),
    'the right class above 0.5'
  )
  const plain = predictAll(w, ['the sky today', 'so very'], cfg)
  t.ok(plain.flat().every(x => x < 0.5), `filler alone: every class under 0.5 (${plain.flat().map(x => x.toFixed(2))})`)
})

t.test('withTemperature: the logits divided by T, plus a bias per label', async t => {
  const w = trainSparseSgd(rows(90, 3), cfg, { ...opts, epochs: 1 }, () => ({ name: 'x', value: 0 }))
  const texts = held.slice(0, 5).map(r => r.text)
  const z = logitsAll(w, texts, cfg)
  const bias = [0.5, 0, -0.5]
  const scaled = logitsAll(withTemperature(w, 2, bias), texts, cfg)
  scaled.forEach((row, i) =>
    row.forEach((x, c) => t.ok(Math.abs(x - ((z[i]![c] as number) / 2 + bias[c]!)) < 1e-5, `text ${i} label ${c}`))
  )
  // the probabilities are the softmax of the logits
  const p = predictAll(w, texts, cfg)
  const soft = z.map(row => {
    const e = row.map(x => Math.exp(x - Math.max(...row)))
    return e.map(x => x / e.reduce((a, b) => a + b, 0))
  })
  t.ok(p.every((row, i) => row.every((x, c) => Math.abs(x - (soft[i]![c] as number)) < 1e-5)))
})
