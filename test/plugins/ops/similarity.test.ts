import t from 'tap'
import { build, FORM, form, KEY } from '../../helper.js'
import { wordCount } from '../../../plugins/ops/similarity.js'

t.test('two-word rule counts words in any script', async (t) => {
  t.equal(wordCount('hello'), 1)
  t.equal(wordCount('hello world'), 2)
  t.equal(wordCount('Grüße aus Köln'), 3)
  t.equal(wordCount('  ...  !!  '), 0)
  t.equal(wordCount('über-morgen'), 2)
})

t.test('scores: similarity_score = actual_score in [0, 1], normalized_score = 5x', async (t) => {
  const app = await build(t)
  const same = (await app.inject({ method: 'POST', url: '/v4/similarity', headers: FORM, payload: form({ api_key: KEY, text_1: 'the same words', text_2: 'the same words' }) })).json() as Record<string, number>
  t.equal(same.similarity_score, 1)
  t.equal(same.normalized_score, 5)
  const diff = (await app.inject({ method: 'POST', url: '/v4/similarity', headers: FORM, payload: form({ api_key: KEY, text_1: 'cats purr', text_2: 'stocks fell' }) })).json() as Record<string, number>
  t.equal(diff.similarity_score, 0)
  t.equal(diff.actual_score, 0)
})
