import t from 'tap'
import { build, buildWithRealModels, FORM, form, hasRealModel, KEY, top } from '../../helper.js'

t.test('shape: intent, and with query=feedback the feedback split; batches in order', async t => {
  const app = await build(t)
  const plain = (
    await app.inject({
      method: 'POST',
      url: '/v4/new/intent',
      headers: FORM,
      payload: form({ api_key: KEY, text: 'fine' })
    })
  ).json() as Record<string, unknown>
  t.same(Object.keys(plain), ['intent'])
  const fb = (
    await app.inject({
      method: 'POST',
      url: '/v4/new/intent',
      headers: FORM,
      payload: form({ api_key: KEY, text: 'fine', query: 'feedback' })
    })
  ).json() as { intent: unknown; feedback: Record<string, number> }
  t.same(fb.intent, plain.intent)
  t.same(Object.keys(fb.feedback), ['complaint', 'suggestion', 'appreciation'])
  const batch = (
    await app.inject({
      method: 'POST',
      url: '/v4/new/intent_batch',
      payload: { api_key: KEY, text: ['a', 'fine'], query: 'feedback' }
    })
  ).json() as { intent: unknown[] }
  t.same(batch.intent[1], fb)
})

t.test(
  'the trained model on unmistakable examples',
  { skip: hasRealModel('new_intent') && hasRealModel('intent') ? false : 'model-store/new_intent not trained yet' },
  async t => {
    const app = await buildWithRealModels(t, ['intent', 'new_intent'])
    const cases: Array<[string, string]> = [
      ['My order arrived broken and nobody answers the phone. Terrible service!', 'complaint'],
      ['It would be great if you could add a dark mode to the app.', 'suggestion'],
      ['Thank you so much for the quick help, you guys are awesome!', 'appreciation']
    ]
    const res = (
      await app.inject({
        method: 'POST',
        url: '/v4/new/intent_batch',
        payload: { api_key: KEY, text: cases.map(c => c[0]), query: 'feedback' }
      })
    ).json() as { intent: Array<{ feedback: Record<string, number> }> }
    cases.forEach(([text, want], i) => t.equal(top(res.intent[i]!.feedback), want, text))
  }
)
