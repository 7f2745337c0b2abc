import t from 'tap'
import { build, buildWithRealModels, FORM, form, hasRealModel, KEY } from '../../helper.js'

const skip = hasRealModel('abuse') ? false : 'model-store/abuse not trained yet'

t.test('shape: sentence_type and confidence_score; the batch is {abuse: [...]}', { skip }, async t => {
  const app = await buildWithRealModels(t, ['abuse'])
  const res = await app.inject({
    method: 'POST',
    url: '/v4/abuse',
    headers: FORM,
    payload: form({ api_key: KEY, text: 'have a nice day' })
  })
  t.equal(res.statusCode, 200)
  const one = res.json() as { sentence_type: string; confidence_score: number }
  t.same(Object.keys(one), ['sentence_type', 'confidence_score'])
  t.ok(['Abusive', 'Non Abusive'].includes(one.sentence_type))
  t.ok(one.confidence_score >= 0.5 && one.confidence_score <= 1)
  const batch = (
    await app.inject({
      method: 'POST',
      url: '/v4/abuse_batch',
      headers: FORM,
      payload: form({ api_key: KEY, text: JSON.stringify(['a', 'have a nice day']) })
    })
  ).json() as { abuse: unknown[] }
  t.equal(batch.abuse.length, 2)
  t.same(batch.abuse[1], one)
})

t.test('the trained model on unmistakable examples', { skip }, async t => {
  const app = await buildWithRealModels(t, ['abuse'])
  const cases: Array<[string, string]> = [
    ['@user you are a fucking idiot and a disgusting piece of shit', 'Abusive'],
    ['Thank you so much for the lovely flowers, see you on Sunday!', 'Non Abusive'],
    ['The meeting has been moved to Thursday at 10am in room 4.', 'Non Abusive'],
    // issue 22's own examples: heated but not abusive text is not abuse, an insult aimed at a person is
    ['this update is garbage', 'Non Abusive'],
    ['@user you are an idiot', 'Abusive']
  ]
  const res = (
    await app.inject({ method: 'POST', url: '/v4/abuse_batch', payload: { api_key: KEY, text: cases.map(c => c[0]) } })
  ).json() as { abuse: Array<{ sentence_type: string }> }
  cases.forEach(([text, want], i) => t.equal(res.abuse[i]!.sentence_type, want, text))
})

t.test('bad input', { skip }, async t => {
  const app = await buildWithRealModels(t, ['abuse'])
  const post = (url: string, body: Record<string, string>) =>
    app.inject({ method: 'POST', url, headers: FORM, payload: form(body) })
  const missing = await post('/v4/abuse', { api_key: KEY })
  t.equal(missing.statusCode, 400)
  t.match(missing.json(), { code: 400, message: /text/ })
  const blank = await post('/v4/abuse', { api_key: KEY, text: '   ' })
  t.equal(blank.statusCode, 400)
  t.match(blank.json(), { code: 400, message: /text/ })
  const notArray = await post('/v4/abuse_batch', { api_key: KEY, text: '["unclosed"' })
  t.equal(notArray.statusCode, 400)
  t.match(notArray.json(), { code: 400, message: /JSON array/ })
  const emptyItem = await post('/v4/abuse_batch', { api_key: KEY, text: '["ok", ""]' })
  t.equal(emptyItem.statusCode, 400)
  t.match(emptyItem.json(), { code: 400, message: /text\[1\]/ })
  const tooLong = await post('/v4/abuse', { api_key: KEY, text: 'x'.repeat(app.config.textMaxChars + 1) })
  t.equal(tooLong.statusCode, 413)
  t.match(tooLong.json(), { code: 413 })
  const noKey = await post('/v4/abuse', { text: 'hello' })
  t.equal(noKey.statusCode, 401)
  const get = await app.inject({ method: 'GET', url: '/v4/abuse' })
  t.equal(get.statusCode, 405)
  t.equal(get.headers.allow, 'POST')
})

t.test('without the model: 503 naming it', async t => {
  const app = await build(t)
  const res = await app.inject({
    method: 'POST',
    url: '/v4/abuse',
    headers: FORM,
    payload: form({ api_key: KEY, text: 'hello' })
  })
  t.equal(res.statusCode, 503)
  t.match(res.json(), { code: 503, message: /abuse/ })
})
