import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { build, buildWithRealModels, FORM, form, hasRealModel, KEY, top } from '../../helper.js'

const skip = hasRealModel('target_sentiment') ? false : 'model-store/target_sentiment not trained yet'
const TEXT = 'The food was absolutely delicious, but the service was slow and the waiter was rude.'
type Answer = { sentiment: Record<string, number>; aspect: string; offsets: Array<{ start: number; end: number }> }

t.test("both eras' paths and field names; scores towards the aspect, with its offsets", { skip }, async t => {
  const app = await buildWithRealModels(t, ['target_sentiment'])
  const post = (url: string, body: Record<string, string>) =>
    app.inject({ method: 'POST', url, headers: FORM, payload: form({ api_key: KEY, ...body }) })
  const a = await post('/v4/target_sentiment', { text: TEXT, aspect: 'food' })
  t.equal(a.statusCode, 200, a.body)
  const food = a.json() as Answer
  t.same(Object.keys(food.sentiment), ['negative', 'neutral', 'positive'])
  t.ok(Math.abs(food.sentiment.negative! + food.sentiment.neutral! + food.sentiment.positive! - 1) < 1e-5)
  t.same(food.offsets, [{ start: 4, end: 8 }])
  t.equal(food.aspect, 'food')
  t.equal(top(food.sentiment), 'positive')
  const e = (await post('/v4/target/sentiment', { text: TEXT, entity: 'Service' })).json() as Answer
  t.equal(top(e.sentiment), 'negative', 'the same text, another aspect')
  t.same(e.offsets, [{ start: 43, end: 50 }], 'found case-insensitively')
  for (const url of ['/v4/target_sentiment_batch', '/v4/target/sentiment_batch']) {
    for (const field of ['aspect', 'entity']) {
      const res = await post(url, { text: JSON.stringify([TEXT, 'Great food, great food.']), [field]: 'food' })
      t.equal(res.statusCode, 200, `${url} ${field} ${res.body}`)
      const { batch } = res.json() as { batch: Answer[] }
      t.equal(batch.length, 2)
      t.same(batch[0], food)
      t.equal(batch[1]!.offsets.length, 2, 'every occurrence')
    }
  }
})

t.test('a laptop review, a neutral mention, and the shared word vectors read beside the bag', { skip }, async t => {
  const app = await buildWithRealModels(t, ['target_sentiment'])
  const post = (text: string, aspect: string) =>
    app.inject({
      method: 'POST',
      url: '/v4/target_sentiment',
      headers: FORM,
      payload: form({ api_key: KEY, text, aspect })
    })
  const laptop = 'The battery life is dreadful but the screen is gorgeous.'
  t.equal(top(((await post(laptop, 'battery life')).json() as Answer).sentiment), 'negative')
  t.equal(top(((await post(laptop, 'screen')).json() as Answer).sentiment), 'positive')
  t.equal(
    top(((await post('We ordered the pasta and a bottle of wine.', 'pasta')).json() as Answer).sentiment),
    'neutral',
    'a mention without an opinion'
  )
  const manifest = JSON.parse(
    readFileSync(
      join(import.meta.dirname, '..', '..', '..', 'model-store', 'target_sentiment', '1', 'manifest.json'),
      'utf8'
    )
  ) as { inputs: Array<{ name: string }> }
  t.same(
    manifest.inputs.map(i => i.name),
    ['ids', 'weights', 'vectors'],
    'the model reads the word-vector mean of the rewritten input'
  )
})

t.test('bad input', { skip }, async t => {
  const app = await buildWithRealModels(t, ['target_sentiment'])
  const post = (url: string, body: Record<string, string>) =>
    app.inject({ method: 'POST', url, headers: FORM, payload: form({ api_key: KEY, ...body }) })
  const absent = await post('/v4/target_sentiment', { text: TEXT, aspect: 'battery' })
  t.equal(absent.statusCode, 400)
  t.match(absent.json(), { code: 400, message: /"battery" does not occur in text/ })
  const part = await post('/v4/target_sentiment', { text: TEXT, aspect: 'foo' })
  t.equal(part.statusCode, 400, 'a part of a word is not the aspect')
  const batchAbsent = await post('/v4/target_sentiment_batch', {
    text: JSON.stringify([TEXT, 'nothing here']),
    aspect: 'food'
  })
  t.equal(batchAbsent.statusCode, 400)
  t.match(batchAbsent.json(), { code: 400, message: /text\[1\]/ })
  const none = await post('/v4/target_sentiment', { text: TEXT })
  t.equal(none.statusCode, 400)
  t.match(none.json(), { code: 400, message: /aspect \(or entity\)/ })
  const both = await post('/v4/target/sentiment', { text: TEXT, aspect: 'food', entity: 'service' })
  t.equal(both.statusCode, 400)
  t.match(both.json(), { code: 400, message: /aspect and entity differ/ })
  const blank = await post('/v4/target_sentiment', { text: TEXT, aspect: '  ' })
  t.equal(blank.statusCode, 400)
  t.match(blank.json(), { code: 400, message: /aspect/ })
  const long = await post('/v4/target_sentiment', { text: TEXT, aspect: 'x'.repeat(201) })
  t.equal(long.statusCode, 400)
  t.match(long.json(), { code: 400, message: /aspect/ })
  const noText = await post('/v4/target_sentiment', { aspect: 'food' })
  t.equal(noText.statusCode, 400)
  t.match(noText.json(), { code: 400, message: /text/ })
})

t.test('without the model: 503', async t => {
  const app = await build(t)
  const res = await app.inject({
    method: 'POST',
    url: '/v4/target_sentiment',
    headers: FORM,
    payload: form({ api_key: KEY, text: TEXT, aspect: 'food' })
  })
  t.equal(res.statusCode, 503)
  t.match(res.json(), { code: 503, message: /target_sentiment/ })
})
