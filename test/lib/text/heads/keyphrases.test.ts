// The encoder's keyphrases: relevance to the text, the stopword ranker's order, and diversity; and the
// model through its loader (candidates from the stopword ranker, ranked by the text encoder).
import t from 'tap'
import { loadEncoderKeyphrases, rankByRelevance } from '../../../../lib/text/heads/keyphrases.js'
import type { Keyword, KeywordInput } from '../../../../lib/text/keywords/ranker.js'
import type { LoadedModel } from '../../../../lib/serving/loaded-model.js'
import { scanStore } from '../../../../lib/serving/registry.js'
import { MODEL_STORE } from '../../../helper.js'

const unit = (...xs: number[]) => {
  const n = Math.hypot(...xs)
  return Float32Array.from(xs, x => x / n)
}

t.test('relevance: the phrase closest to the text first, unless the stopword order weighs more', async t => {
  const text = unit(1, 0, 0)
  const phrases = [unit(0, 1, 0), unit(1, 0.1, 0), unit(0, 0, 1)]
  const byCosine = rankByRelevance(text, phrases, { candidates: 3, top: 3, relevance: 1, redundancy: 0 })
  t.equal(byCosine[0]![0], 1, 'the closest phrase first')
  const byOrder = rankByRelevance(text, phrases, { candidates: 3, top: 3, relevance: 0, redundancy: 0 })
  t.same(
    byOrder.map(([i]) => i),
    [0, 1, 2],
    "relevance 0: the stopword ranker's order"
  )
  t.ok(
    byCosine.every(([, v], k) => k === 0 || v <= byCosine[k - 1]![1]),
    'values fall along the ranking'
  )
})

t.test('diversity: a phrase like one already chosen is marked down', async t => {
  const text = unit(1, 1, 0)
  const phrases = [unit(1, 0.9, 0), unit(1, 0.92, 0), unit(1, 0.6, 0.6), unit(0, 0.3, 1)]
  const plain = rankByRelevance(text, phrases, { candidates: 4, top: 2, relevance: 1, redundancy: 0 })
  t.same(
    plain.map(([i]) => i),
    [1, 0],
    'without redundancy the two near twins'
  )
  // a weight far above the served one (1.5), so that the small differences of these vectors show
  const diverse = rankByRelevance(text, phrases, { candidates: 4, top: 2, relevance: 1, redundancy: 20 })
  t.equal(diverse[0]![0], 1, 'the closest first still')
  t.not(diverse[1]![0], 0, 'its twin is no longer second')
  t.equal(rankByRelevance(text, [], { candidates: 3, top: 2, relevance: 1, redundancy: 1.5 }).length, 0)
})

t.test('keywords-multilingual through its loader', async t => {
  const info = (await scanStore(MODEL_STORE)).find(i => i.name === 'keywords-multilingual')!
  t.equal(info.manifest.kind, 'encoder-keyphrases')
  t.same(info.manifest.languages, ['es', 'nl', 'de', 'fr', 'it', 'pt'])
  const loaded = await loadEncoderKeyphrases(info.dir, info.manifest, undefined, { imageMaxPixels: 0 })
  const model = loaded as LoadedModel<KeywordInput, Keyword[]>
  const es = 'El cambio climático amenaza la producción de alimentos. El cambio climático reducirá las cosechas.'
  const [got, none] = await model.predict([
    { text: es, lang: 'es' },
    { text: 'y de la ... !', lang: 'es' }
  ])
  t.ok(got!.length > 0 && got!.length <= 10)
  t.ok(
    got!.some(k => k.keyword.toLowerCase() === 'cambio climático'),
    got!.map(k => k.keyword).join(', ')
  )
  t.ok(
    got!.every(
      (k, i) =>
        k.confidence_score > 0 &&
        k.confidence_score <= 1 &&
        (i === 0 || k.confidence_score <= got![i - 1]!.confidence_score)
    ),
    'confidences in (0, 1], never rising'
  )
  t.same(none, [], 'stopwords and punctuation only: no phrase')
  t.same(new Set(got!.map(k => k.keyword.toLowerCase())).size, got!.length, 'no phrase twice')
})
