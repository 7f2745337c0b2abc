import t from 'tap'
import { build, buildWithRealModels, FORM, form, hasRealModel, KEY, top } from '../../helper.js'

const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0)

t.test('shape: five scores summing to 1; batch items wrapped in {intent}', async t => {
  const app = await build(t)
  const one = (
    await app.inject({
      method: 'POST',
      url: '/v4/intent',
      headers: FORM,
      payload: form({ api_key: KEY, text: 'fine' })
    })
  ).json() as { intent: Record<string, number> }
  t.same(Object.keys(one.intent), ['news', 'query', 'spam', 'marketing', 'feedback'])
  t.ok(Math.abs(sum(one.intent) - 1) < 1e-5)
  const batch = (
    await app.inject({ method: 'POST', url: '/v4/intent_batch', payload: { api_key: KEY, text: ['a', 'fine'] } })
  ).json() as { intent: Array<{ intent: Record<string, number> }> }
  t.same(batch.intent[1], one)
})

t.test(
  'the trained model on unmistakable examples',
  { skip: hasRealModel('intent') ? false : 'model-store/intent not trained yet' },
  async t => {
    const app = await buildWithRealModels(t, ['intent'])
    const cases: Array<[string, string]> = [
      ['What time does the pharmacy on Main Street close tonight?', 'query'],
      ['How do I reset my password?', 'query'],
      ['URGENT! You have won a 1000 pound prize. Call 09061701461 now to claim. T&C apply', 'spam'],
      [
        'Stocks fell sharply on Wall Street as investors worried about interest rates, the central bank said on ' +
          'Tuesday.',
        'news'
      ],
      ['Your app keeps crashing every time I open it, please fix this, very disappointed', 'feedback']
    ]
    const res = (
      await app.inject({
        method: 'POST',
        url: '/v4/intent_batch',
        payload: { api_key: KEY, text: cases.map(c => c[0]) }
      })
    ).json() as { intent: Array<{ intent: Record<string, number> }> }
    cases.forEach(([text, want], i) => t.equal(top(res.intent[i]!.intent), want, text))
  }
)
