import t from 'tap'
import { build, FORM, form, KEY } from '../../helper.js'

t.test('entities carry UTF-16 offsets into the original text; empty is []; batch order', async (t) => {
  const app = await build(t)
  const text = 'Café ☕️ 😀\r\nnaïve Zoë met Émile in Zürich'
  const one = (await app.inject({ method: 'POST', url: '/v4/ner', headers: FORM, payload: form({ api_key: KEY, text }) })).json() as { entities: Array<{ name: string, start: number, end: number, category: string }> }
  t.ok(one.entities.length >= 3)
  for (const e of one.entities) t.equal(text.slice(e.start, e.end), e.name, e.name)
  const none = (await app.inject({ method: 'POST', url: '/v4/ner', headers: FORM, payload: form({ api_key: KEY, text: 'nothing here at all' }) })).json()
  t.same(none, { entities: [] })
  const batch = (await app.inject({ method: 'POST', url: '/v4/ner_batch', payload: { api_key: KEY, text: ['nothing here', text] } })).json() as { entities: unknown[][] }
  t.same(batch.entities[0], [])
  t.same(batch.entities[1], one.entities)
})
