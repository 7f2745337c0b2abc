import t from 'tap'
import { build, buildWithRealModels, FORM, form, hasRealModel, KEY, top } from '../../helper.js'

const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0)

t.test('shape: three scores summing to 1; batch in input order', async t => {
  const app = await build(t)
  const one = (
    await app.inject({
      method: 'POST',
      url: '/v4/sentiment',
      headers: FORM,
      payload: form({ api_key: KEY, text: 'fine' })
    })
  ).json() as { sentiment: Record<string, number> }
  t.same(Object.keys(one.sentiment), ['negative', 'neutral', 'positive'])
  t.ok(Math.abs(sum(one.sentiment) - 1) < 1e-5)
  for (const v of Object.values(one.sentiment)) t.ok(v >= 0 && v <= 1)
  const batch = (
    await app.inject({
      method: 'POST',
      url: '/v4/sentiment_batch',
      payload: { api_key: KEY, text: ['zzz', 'fine', 'aaa'] }
    })
  ).json() as { sentiment: Array<Record<string, number>> }
  t.same(batch.sentiment[1], one.sentiment)
})

t.test(
  'the trained model on unmistakable examples',
  { skip: hasRealModel('sentiment') ? false : 'model-store/sentiment not trained yet' },
  async t => {
    const app = await buildWithRealModels(t, ['sentiment'])
    const cases: Array<[string, string]> = [
      ['I absolutely love this, best day ever! So happy :)', 'positive'],
      ['Thank you so much, this is wonderful and amazing', 'positive'],
      ['This is terrible, I hate it. Worst service ever, awful.', 'negative'],
      ['I am so angry and disappointed, what a horrible experience', 'negative'],
      ['The meeting is scheduled for Tuesday at 3pm in room 204.', 'neutral']
    ]
    const res = (
      await app.inject({
        method: 'POST',
        url: '/v4/sentiment_batch',
        payload: { api_key: KEY, text: cases.map(c => c[0]) }
      })
    ).json() as { sentiment: Array<Record<string, number>> }
    cases.forEach(([text, want], i) => t.equal(top(res.sentiment[i]!), want, text))
  }
)
