import t from 'tap'
import { build, buildWithRealModels, FORM, form, hasRealModel, KEY, top } from '../../helper.js'

const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0)

t.test('shape: six scores summing to 1', async t => {
  const app = await build(t)
  const one = (
    await app.inject({
      method: 'POST',
      url: '/v4/emotion',
      headers: FORM,
      payload: form({ api_key: KEY, text: 'fine' })
    })
  ).json() as { emotion: Record<string, number> }
  t.same(Object.keys(one.emotion), ['Fear', 'Happy', 'Angry', 'Sad', 'Excited', 'Bored'])
  t.ok(Math.abs(sum(one.emotion) - 1) < 1e-5)
  const batch = (
    await app.inject({ method: 'POST', url: '/v4/emotion_batch', payload: { api_key: KEY, text: ['a', 'fine'] } })
  ).json() as { emotion: Array<Record<string, number>> }
  t.same(batch.emotion[1], one.emotion)
})

t.test(
  'the trained model on unmistakable examples',
  { skip: hasRealModel('emotion') ? false : 'model-store/emotion not trained yet' },
  async t => {
    const app = await buildWithRealModels(t, ['emotion'])
    const cases: Array<[string, string]> = [
      ['I am terrified, I am so scared of what will happen', 'Fear'],
      ['I am so happy and grateful, this made my day, thank you!', 'Happy'],
      ['I am furious, this makes me so angry, how dare they', 'Angry'],
      ['I am heartbroken and so sad, I miss her and cry every day', 'Sad']
    ]
    const res = (
      await app.inject({
        method: 'POST',
        url: '/v4/emotion_batch',
        payload: { api_key: KEY, text: cases.map(c => c[0]) }
      })
    ).json() as { emotion: Array<Record<string, number>> }
    cases.forEach(([text, want], i) => t.equal(top(res.emotion[i]!), want, text))
  }
)
