import t from 'tap'
import { build, buildWithRealModels, FORM, form, hasRealModel, KEY } from '../../helper.js'

const skip =
  hasRealModel('custom_classifier') && hasRealModel('word-vectors')
    ? false
    : 'model-store/custom_classifier or word-vectors missing'
const TEXT = 'The striker scored twice as the team won the championship final in extra time.'
type Row = { category?: string; tag?: string; confidence_score: number }

t.test('a list of labels (2021 clients): {category, confidence_score}, best first, summing to 1', { skip }, async t => {
  const app = await buildWithRealModels(t, ['custom_classifier', 'word-vectors'])
  const res = await app.inject({
    method: 'POST',
    url: '/v4/custom_classifier',
    headers: FORM,
    payload: form({
      api_key: KEY,
      text: TEXT,
      category: JSON.stringify(['politics', 'sports', 'cooking', 'technology'])
    })
  })
  t.equal(res.statusCode, 200, res.body)
  const { taxonomy } = res.json() as { taxonomy: Row[] }
  t.equal(taxonomy.length, 4)
  t.equal(taxonomy[0]!.category, 'sports')
  t.same(Object.keys(taxonomy[0]!), ['category', 'confidence_score'])
  for (let i = 1; i < taxonomy.length; i++) t.ok(taxonomy[i - 1]!.confidence_score >= taxonomy[i]!.confidence_score)
  t.ok(Math.abs(taxonomy.reduce((a, r) => a + r.confidence_score, 0) - 1) < 1e-6)
  const json = await app.inject({
    method: 'POST',
    url: '/v4/custom_classifier',
    payload: {
      api_key: KEY,
      text: 'The recipe needs butter, flour and two eggs.',
      category: ['politics', 'sports', 'cooking']
    }
  })
  t.equal((json.json() as { taxonomy: Row[] }).taxonomy[0]!.category, 'cooking', 'a JSON body with a real array')
})

t.test('an object of label to keywords (older clients): {tag, confidence_score}', { skip }, async t => {
  const app = await buildWithRealModels(t, ['custom_classifier', 'word-vectors'])
  const category = { finance: ['bank', 'loan', 'interest'], travel: ['flight', 'hotel', 'beach'] }
  const res = await app.inject({
    method: 'POST',
    url: '/v4/custom_classifier',
    headers: FORM,
    payload: form({
      api_key: KEY,
      text: 'We booked a cheap flight and a hotel near the beach.',
      category: JSON.stringify(category)
    })
  })
  t.equal(res.statusCode, 200, res.body)
  const { taxonomy } = res.json() as { taxonomy: Row[] }
  t.same(Object.keys(taxonomy[0]!), ['tag', 'confidence_score'])
  t.equal(taxonomy[0]!.tag, 'travel')
})

t.test('bad categories: clear 400s', { skip }, async t => {
  const app = await buildWithRealModels(t, ['custom_classifier', 'word-vectors'])
  const post = (category: string, text = TEXT) =>
    app.inject({
      method: 'POST',
      url: '/v4/custom_classifier',
      headers: FORM,
      payload: form({ api_key: KEY, text, category })
    })
  const cases: Array<[string, RegExp]> = [
    ['sports, politics', /not JSON/],
    ['"sports"', /JSON list of labels/],
    ['["sports"]', /at least 2 different labels/],
    [JSON.stringify(Array.from({ length: 26 }, (_, i) => `label ${i}`)), /at most 25 labels/],
    ['["sports", 3]', /every label must be a string/],
    ['["sports", "sports"]', /at least 2 different labels/],
    ['["sports", " "]', /A label is empty/],
    [JSON.stringify(['sports', 'x'.repeat(101)]), /longer than 100/],
    [JSON.stringify({ sports: [1, 2], news: [] }), /keywords of "sports" must be a list of strings/],
    [JSON.stringify({ sports: Array.from({ length: 51 }, (_, i) => `k${i}`), news: [] }), /at most 50/],
    ['["sports", "qzxvwpt"]', /No word of the label "qzxvwpt"/]
  ]
  for (const [category, message] of cases) {
    const res = await post(category)
    t.equal(res.statusCode, 400, category.slice(0, 40))
    t.match(res.json(), { code: 400, message }, category.slice(0, 40))
  }
  const missing = await app.inject({
    method: 'POST',
    url: '/v4/custom_classifier',
    headers: FORM,
    payload: form({ api_key: KEY, text: TEXT })
  })
  t.equal(missing.statusCode, 400)
  t.match(missing.json(), { code: 400, message: /category/ })
  const noText = await app.inject({
    method: 'POST',
    url: '/v4/custom_classifier',
    headers: FORM,
    payload: form({ api_key: KEY, category: '["a","b"]' })
  })
  t.equal(noText.statusCode, 400)
  t.match(noText.json(), { code: 400, message: /text/ })
})

t.test('without the model: 503', async t => {
  const app = await build(t)
  const res = await app.inject({
    method: 'POST',
    url: '/v4/custom_classifier',
    headers: FORM,
    payload: form({ api_key: KEY, text: TEXT, category: '["a","b"]' })
  })
  t.equal(res.statusCode, 503)
  t.match(res.json(), { code: 503, message: /custom_classifier/ })
})
