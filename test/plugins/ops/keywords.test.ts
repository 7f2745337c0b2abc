import t from 'tap'
import { build, FORM, form, KEY } from '../../helper.js'

t.test('keywords: objects with keyword and confidence_score; batch order', async (t) => {
  const app = await build(t)
  const one = (await app.inject({ method: 'POST', url: '/v4/keywords', headers: FORM, payload: form({ api_key: KEY, text: 'keyphrase extraction with graphs' }) })).json() as { keywords: Array<{ keyword: string, confidence_score: number }> }
  t.ok(one.keywords.length > 0 && one.keywords.length <= 10)
  for (const k of one.keywords) t.ok(typeof k.keyword === 'string' && k.confidence_score >= 0 && k.confidence_score <= 1)
  const batch = (await app.inject({ method: 'POST', url: '/v4/keywords_batch', payload: { api_key: KEY, text: ['a b', 'keyphrase extraction with graphs'] } })).json() as { keywords: unknown[][] }
  t.same(batch.keywords[1], one.keywords)
})
