import t from 'tap'
import { build, buildWithRealModels, FORM, form, KEY } from '../../helper.js'

const TEXT =
  'The new camera takes great photos. Apple said the new camera uses machine learning, and the battery life is longer.'

t.test('noun phrases with integer relevance, most relevant first; the batch nests them', async t => {
  const app = await buildWithRealModels(t, ['phrase_extractor'])
  const res = await app.inject({
    method: 'POST',
    url: '/v4/phrase_extractor',
    headers: FORM,
    payload: form({ api_key: KEY, text: TEXT })
  })
  t.equal(res.statusCode, 200)
  const { keywords } = res.json() as { keywords: Array<{ keyword: string; relevance_score: number }> }
  t.same(keywords[0], { keyword: 'new camera', relevance_score: 2 })
  for (const k of keywords) t.ok(Number.isInteger(k.relevance_score) && k.relevance_score >= 1)
  const words = keywords.map(k => k.keyword)
  for (const p of ['machine learning', 'battery life', 'great photos', 'Apple']) t.ok(words.includes(p), p)
  t.notOk(
    words.some(w => /\b(the|said|takes|and)\b/.test(w)),
    'no verbs or determiners'
  )
  const batch = await app.inject({
    method: 'POST',
    url: '/v4/phrase_extractor_batch',
    headers: FORM,
    payload: form({ api_key: KEY, text: JSON.stringify([TEXT, 'Nothing here?']) })
  })
  t.equal(batch.statusCode, 200)
  const b = batch.json() as { keywords: unknown[][] }
  t.same(b.keywords[0], keywords)
  t.equal(b.keywords.length, 2)
})

t.test('bad input', async t => {
  const app = await buildWithRealModels(t, ['phrase_extractor'])
  const post = (url: string, body: Record<string, string>) =>
    app.inject({ method: 'POST', url, headers: FORM, payload: form(body) })
  const missing = await post('/v4/phrase_extractor', { api_key: KEY })
  t.equal(missing.statusCode, 400)
  t.match(missing.json(), { code: 400, message: /text/ })
  const blank = await post('/v4/phrase_extractor', { api_key: KEY, text: ' ' })
  t.equal(blank.statusCode, 400)
  t.match(blank.json(), { code: 400, message: /text/ })
  const malformed = await post('/v4/phrase_extractor_batch', { api_key: KEY, text: '["a",' })
  t.equal(malformed.statusCode, 400)
  t.match(malformed.json(), { code: 400, message: /JSON array/ })
  const tooLong = await post('/v4/phrase_extractor', { api_key: KEY, text: 'word '.repeat(app.config.textMaxChars) })
  t.equal(tooLong.statusCode, 413)
  t.match(tooLong.json(), { code: 413 })
})

t.test('without the model: 503', async t => {
  const app = await build(t)
  const res = await app.inject({
    method: 'POST',
    url: '/v4/phrase_extractor',
    headers: FORM,
    payload: form({ api_key: KEY, text: TEXT })
  })
  t.equal(res.statusCode, 503)
  t.match(res.json(), { code: 503, message: /phrase_extractor/ })
})
