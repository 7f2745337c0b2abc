import t from 'tap'
import { build, buildWithRealModels, FORM, form, hasRealModel, KEY } from '../../helper.js'

t.test('shape: the top 3 tags, best first, upper case', async t => {
  const app = await build(t)
  const one = (
    await app.inject({
      method: 'POST',
      url: '/v4/taxonomy',
      headers: FORM,
      payload: form({ api_key: KEY, text: 'fine' })
    })
  ).json() as { taxonomy: Array<{ tag: string; confidence_score: number }> }
  t.equal(one.taxonomy.length, 3)
  for (const x of one.taxonomy) t.match(x.tag, /^[A-Z][A-Z_ &]+$/)
  t.ok(
    one.taxonomy[0]!.confidence_score >= one.taxonomy[1]!.confidence_score &&
      one.taxonomy[1]!.confidence_score >= one.taxonomy[2]!.confidence_score
  )
  const batch = (
    await app.inject({ method: 'POST', url: '/v4/taxonomy_batch', payload: { api_key: KEY, text: ['a', 'fine'] } })
  ).json() as { taxonomy: unknown[] }
  t.same(batch.taxonomy[1], one.taxonomy)
})

t.test(
  'the trained model on unmistakable examples',
  { skip: hasRealModel('taxonomy') ? false : 'model-store/taxonomy not trained yet' },
  async t => {
    const app = await buildWithRealModels(t, ['taxonomy'])
    const cases: Array<[string, string]> = [
      ['The striker scored twice as United beat Chelsea 3-1 in the Premier League match.', 'SPORTS'],
      ['Shares in the bank rose 5% after profits beat forecasts, lifting the stock market.', 'BUSINESS'],
      ['The prime minister faced MPs in parliament ahead of the general election vote.', 'POLITICS'],
      ['The film won best actress at the Oscars and the band topped the music charts.', 'ENTERTAINMENT'],
      ['The new smartphone chip and software update improve broadband and computer security.', 'TECH']
    ]
    const res = (
      await app.inject({
        method: 'POST',
        url: '/v4/taxonomy_batch',
        payload: { api_key: KEY, text: cases.map(c => c[0]) }
      })
    ).json() as { taxonomy: Array<Array<{ tag: string }>> }
    cases.forEach(([text, want], i) => t.equal(res.taxonomy[i]![0]!.tag, want, text))
  }
)
