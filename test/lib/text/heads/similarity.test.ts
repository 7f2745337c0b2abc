// The similarity map: linear between knots, flat beyond them; its fit (isotonic, then thinned); the STS
// readers; and the trained model through its loader.
import t from 'tap'
import { loadEncoderSimilarity, mapped, type Pair } from '../../../../lib/text/heads/similarity.js'
import { isotonic, thin } from '../../../../training/heads/similarity.js'
import { csvFields, spearman } from '../../../../training/readers/similarity.js'
import { scanStore } from '../../../../lib/serving/registry.js'
import { MODEL_STORE } from '../../../helper.js'

t.test('the map is linear between knots and flat beyond them', async t => {
  const map = { cos: [0.5, 0.7, 0.9], score: [0, 0.2, 1] }
  t.equal(mapped(map, 0.1), 0)
  t.ok(Math.abs(mapped(map, 0.6) - 0.1) < 1e-12)
  t.ok(Math.abs(mapped(map, 0.8) - 0.6) < 1e-12)
  t.equal(mapped(map, 0.99), 1)
})

t.test('isotonic regression is non-decreasing and pools the violators', async t => {
  const fit = isotonic([0.1, 0.2, 0.3, 0.4], [0.0, 0.5, 0.3, 0.9])
  t.same(
    fit.score.map(v => v.toFixed(2)),
    ['0.00', '0.40', '0.90']
  )
  t.same(
    fit.cos.map(v => v.toFixed(2)),
    ['0.10', '0.25', '0.40']
  )
  const xs = Array.from({ length: 200 }, (_, i) => i / 200)
  const noisy = isotonic(
    xs,
    xs.map((x, i) => x + (i % 2 === 0 ? 0.1 : -0.1))
  )
  for (let i = 1; i < noisy.score.length; i++) t.ok(noisy.score[i]! > noisy.score[i - 1]!, `knot ${i} rises`)
  const kept = thin(noisy, xs, 8)
  t.ok(kept.cos.length <= 8)
  for (let i = 1; i < kept.score.length; i++) t.ok(kept.score[i]! >= kept.score[i - 1]!)
})

t.test('CSV fields with quotes and commas; Spearman with ties', async t => {
  t.same(csvFields('A plane.,"A man, and ""him"".",5.0'), ['A plane.', 'A man, and "him".', '5.0'])
  t.equal(spearman([1, 2, 3, 4], [10, 20, 30, 40]), 1)
  t.equal(spearman([1, 2, 3, 4], [4, 3, 2, 1]), -1)
  t.ok(Math.abs(spearman([1, 1, 2, 3], [1, 2, 3, 4]) - 0.9486833) < 1e-6)
})

async function trained () {
  const info = (await scanStore(MODEL_STORE)).find(i => i.name === 'similarity')!
  return { info, model: await loadEncoderSimilarity(info.dir, info.manifest, null, { imageMaxPixels: 0 }) }
}

t.test('the trained model through its loader: in [0, 1], long texts bounded, a repeated pair the same', async t => {
  const { info, model } = await trained()
  t.equal(info.manifest.kind, 'encoder-similarity')
  t.same(info.manifest.languages, ['en', 'de', 'es', 'nl'])
  const pairs: Pair[] = [
    { a: 'A woman is slicing an onion.', b: 'Someone is cutting an onion.' },
    { a: 'A woman is slicing an onion.', b: 'Two dogs play in the snow.' },
    { a: 'word '.repeat(20_000), b: 'two words' },
    { a: 'uno dos drei vier', b: 'uno dos drei vier' }
  ]
  const batch = await model.predict(pairs)
  t.equal(batch.length, pairs.length)
  t.ok(batch.every(s => s >= 0 && s <= 1))
  t.ok(batch[0]! > batch[1]! + 0.3, `paraphrase ${batch[0]} vs unrelated ${batch[1]}`)
  t.ok(batch[3]! > 0.9, `identical texts ${batch[3]}`)
  // the encoder's cache gives a recent text the vector it had in the batch
  for (const [i, p] of pairs.entries()) t.same(await model.predict([p]), [batch[i]], `pair ${i} again`)
})

t.test('the trained model: a paraphrase well above an unrelated pair, love/hate below a paraphrase', async t => {
  const { model } = await trained()
  const [para, other, same, opposite] = await model.predict([
    { a: 'A cat is sitting on the mat.', b: 'A kitten sits on a rug.' },
    { a: 'A cat is sitting on the mat.', b: 'The stock market fell sharply today.' },
    { a: 'I love this phone', b: 'This phone is fantastic, I really like it' },
    { a: 'I love this phone', b: 'I hate this phone' }
  ])
  t.ok(para! >= other! + 0.3, `cat/kitten ${para} well above unrelated ${other}`)
  t.ok(other! <= 0.2, `unrelated ${other}`)
  t.ok(same! >= opposite! + 0.1, `love/fantastic ${same} above love/hate ${opposite}`)
})
