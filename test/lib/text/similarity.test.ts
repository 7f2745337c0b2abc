// The similarity model's pieces: pair features (bounded, symmetric where they should be), the stored
// word-vector format, the STS readers and rank correlation; with the trained model, the loader
// (batch equals single, deterministic, fast, long inputs bounded).
import t from 'tap'
import { join } from 'node:path'
import { hasRealModel, MODEL_STORE } from '../../helper.js'
import { FEATURES, LANGS, MAX_TOKENS, buildIdf, pairFeatures, tfidfCosine, tokens } from '../../../lib/text/similarity-features.js'
import { decodeVectors, encodeVectors, type WordVectors } from '../../../lib/text/similarity-vectors.js'
import { csvFields, spearman } from '../../../training/similarity-data.js'
import { scanStore } from '../../../lib/registry.js'
import { getTf } from '../../../lib/tf.js'
import type { SimilarityInput } from '../../../lib/text/similarity.js'
import { loadEncoderSimilarity } from '../../../lib/text/heads/similarity.js'

const idf = buildIdf(['a man is playing a guitar', 'a woman is slicing an onion', 'the cat sat on the mat', 'a man is riding a horse'])
const vecs: WordVectors = decodeVectors('man\nwoman\nguitar\nviolin\n', encodeVectors([[1, 0, 0], [0.9, 0.1, 0], [0, 1, 0], [0, 0.8, 0.6]], 3), 3)

t.test('word vectors survive int8 storage as unit rows', async (t) => {
  t.equal(vecs.index.get('violin'), 3)
  const row = Array.from(vecs.data.subarray(9, 12))
  t.ok(Math.abs(Math.hypot(...row) - 1) < 1e-6)
  t.ok(Math.abs(row[1]! - 0.8) < 0.01 && Math.abs(row[2]! - 0.6) < 0.01)
})

t.test('pair features: one per name, finite, symmetric, language one-hot', async (t) => {
  const a = 'A man is playing the guitar, not the violin; 3 strings.'
  const b = 'A woman plays a violin with 4 strings.'
  for (const lang of LANGS) {
    const f = pairFeatures(a, b, lang, idf, vecs)
    t.equal(f.length, FEATURES.length)
    t.ok(f.every(Number.isFinite), `${lang}: finite`)
    t.same(pairFeatures(b, a, lang, idf, vecs).map((x) => x.toFixed(6)), f.map((x) => x.toFixed(6)), `${lang}: symmetric`)
    t.equal(f[FEATURES.indexOf(`lang_${lang}` as typeof FEATURES[number])], 1)
  }
  const same = pairFeatures(a, a, 'en', idf, vecs)
  for (const name of ['tfidf_words', 'tfidf_chars', 'jaccard', 'lcs_max', 'align_mean', 'numbers_equal'] as const) {
    t.ok(Math.abs(same[FEATURES.indexOf(name)]! - 1) < 1e-6, `identical texts: ${name} = 1`)
  }
  const f = pairFeatures(a, b, 'en', idf, vecs)
  t.equal(f[FEATURES.indexOf('negation_mismatch')], 1, 'only one side negates')
  t.equal(f[FEATURES.indexOf('numbers_equal')], 0, '3 vs 4')
  const empty = pairFeatures('', '...', 'en', idf, vecs)
  t.ok(empty.every(Number.isFinite), 'texts without words')
})

t.test('TF-IDF cosine: 1 for the same words in any case and order, 0 without shared words', async (t) => {
  t.ok(Math.abs(tfidfCosine('The cat sat', 'sat the CAT', idf) - 1) < 1e-9)
  t.equal(tfidfCosine('the cat sat', 'a dog ran', idf), 0)
})

t.test('tokens are capped, so a huge text costs bounded time', async (t) => {
  const huge = 'word '.repeat(100_000)
  t.equal(tokens(huge).length, MAX_TOKENS)
  const t0 = performance.now()
  const f = pairFeatures(huge, huge + ' other', 'en', idf, vecs)
  t.ok(f.every(Number.isFinite))
  t.ok(performance.now() - t0 < 10_000, `${Math.round(performance.now() - t0)} ms (a guard against unbounded work, not a speed target)`)
})

t.test('CSV fields with quotes and commas; Spearman with ties', async (t) => {
  t.same(csvFields('A plane.,"A man, and ""him"".",5.0'), ['A plane.', 'A man, and "him".', '5.0'])
  t.equal(spearman([1, 2, 3, 4], [10, 20, 30, 40]), 1)
  t.equal(spearman([1, 2, 3, 4], [4, 3, 2, 1]), -1)
  t.ok(Math.abs(spearman([1, 1, 2, 3], [1, 2, 3, 4]) - 0.9486833) < 1e-6)
})

t.test('the trained model through its loader', { skip: hasRealModel('similarity') ? false : 'model-store/similarity not trained yet' }, async (t) => {
  const { tf } = await getTf()
  const info = (await scanStore(MODEL_STORE)).find((i) => i.name === 'similarity')!
  t.equal(info.manifest.kind, 'encoder-similarity')
  t.ok(info.manifest.languages.includes('en'))
  const model = await loadEncoderSimilarity(info.dir, info.manifest, tf, { imageMaxPixels: 0 })
  t.teardown(() => model.dispose())
  const pairs: SimilarityInput[] = [
    { a: 'A woman is slicing an onion.', b: 'Someone is cutting an onion.', lang: 'en' },
    { a: 'A woman is slicing an onion.', b: 'Two dogs play in the snow.', lang: 'en' },
    { a: 'word '.repeat(20_000), b: 'two words', lang: 'en' },
    ...info.manifest.languages.map((lang) => ({ a: 'uno dos drei vier', b: 'uno dos drei vier', lang }))
  ]
  const batch = await model.predict(pairs) as number[]
  t.equal(batch.length, pairs.length)
  t.ok(batch.every((s) => s >= 0 && s <= 1))
  t.ok(batch[0]! > batch[1]! + 0.3, `paraphrase ${batch[0]} vs unrelated ${batch[1]}`)
  for (const [i, p] of pairs.entries()) {
    const [alone] = await model.predict([p]) as number[]
    t.ok(Math.abs(alone! - batch[i]!) < 1e-5, `pair ${i} alone = in the batch`)
  }
  t.same(await model.predict(pairs), batch, 'deterministic')
  t.equal(join(info.dir), join(MODEL_STORE, 'similarity', String(info.version)))
})

t.test('the noisy-OR with the SIF cosine: weight 0 is the network alone, a negative cosine adds nothing', async (t) => {
  const { combineSif } = await import('../../../lib/text/similarity.js')
  t.ok(Math.abs(combineSif(0.3, 0.9, 0) - 0.3) < 1e-12)
  t.ok(Math.abs(combineSif(0.3, -0.5, 0.8) - 0.3) < 1e-12)
  t.ok(Math.abs(combineSif(0.2, 0.5, 0.8) - 0.52) < 1e-12)
  t.equal(combineSif(1, 0.2, 0.8), 1)
  t.ok(combineSif(0.2, 2, 1) <= 1, 'a cosine above 1 is capped')
})

t.test('the trained model: a paraphrase in other words scores high, an unrelated pair low (the README example)', { skip: hasRealModel('similarity') ? false : 'model-store/similarity not trained yet' }, async (t) => {
  const { tf } = await getTf()
  const info = (await scanStore(MODEL_STORE)).find((i) => i.name === 'similarity')!
  const model = await loadEncoderSimilarity(info.dir, info.manifest, tf, { imageMaxPixels: 0 })
  t.teardown(() => model.dispose())
  const [para, other, same, opposite] = await model.predict([
    { a: 'A cat is sitting on the mat.', b: 'A kitten sits on a rug.', lang: 'en' },
    { a: 'A cat is sitting on the mat.', b: 'The stock market fell sharply today.', lang: 'en' },
    { a: 'I love this phone', b: 'This phone is fantastic, I really like it', lang: 'en' },
    { a: 'I love this phone', b: 'I hate this phone', lang: 'en' }
  ]) as number[]
  t.ok(para! >= other! + 0.3, `cat/kitten ${para} well above unrelated ${other}`)
  t.ok(other! <= 0.2, `unrelated ${other}`)
  t.ok(same! >= opposite! + 0.1, `love/fantastic ${same} above love/hate ${opposite}`)
})
