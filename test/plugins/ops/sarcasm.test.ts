import t from 'tap'
import { build, buildWithRealModels, FORM, form, hasRealModel, KEY, top } from '../../helper.js'

t.test('shape: Sarcastic and Non-Sarcastic summing to 1; the batch is a bare array', async t => {
  const app = await build(t)
  const one = (
    await app.inject({
      method: 'POST',
      url: '/v4/sarcasm',
      headers: FORM,
      payload: form({ api_key: KEY, text: 'fine' })
    })
  ).json() as Record<string, number>
  t.same(Object.keys(one), ['Sarcastic', 'Non-Sarcastic'])
  t.ok(Math.abs(one.Sarcastic! + one['Non-Sarcastic']! - 1) < 1e-5)
  const batch = (
    await app.inject({ method: 'POST', url: '/v4/sarcasm_batch', payload: { api_key: KEY, text: ['a', 'fine'] } })
  ).json() as Array<Record<string, number>>
  t.ok(Array.isArray(batch))
  t.same(batch[1], one)
})

t.test(
  'the trained model on unmistakable examples',
  { skip: hasRealModel('sarcasm') ? false : 'model-store/sarcasm not trained yet' },
  async t => {
    const app = await buildWithRealModels(t, ['sarcasm'])
    const cases: Array<[string, string]> = [
      ['Oh great, I just love being stuck in traffic for three hours. #not', 'Sarcastic'],
      ['Wow, another Monday, my absolute favourite thing in the world #sarcasm', 'Sarcastic'],
      ['The city council approved the new budget for public schools on Monday.', 'Non-Sarcastic']
    ]
    const res = (
      await app.inject({
        method: 'POST',
        url: '/v4/sarcasm_batch',
        payload: { api_key: KEY, text: cases.map(c => c[0]) }
      })
    ).json() as Array<Record<string, number>>
    cases.forEach(([text, want], i) => t.equal(top(res[i]!), want, text))
  }
)
