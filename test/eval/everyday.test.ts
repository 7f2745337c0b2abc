// eval/everyday.md: how often each model is right on the everyday texts, by kind of text and for the
// sarcastic texts of every kind.
import t from 'tap'
import { everydayMarkdown, JUDGES, tally, type Judge } from '../../eval/everyday.js'
import { everyday, type Everyday } from '../../training/mix.js'

const row = (domain: string, sentiment: string, sarcastic: boolean, feedback: string | null = null): Everyday =>
  ({ text: `${domain} ${sentiment}`, domain, sentiment, intent: 'feedback', feedback, topic: 'NONE', sarcastic, emotion: null })
const rows = [row('review', 'negative', true, 'complaint'), row('review', 'positive', false, 'appreciation'), row('news', 'neutral', false), row('news', 'negative', true)]
const judges: Judge[] = [
  { model: 'sentiment', measure: 'polarity', gold: (r) => r.sentiment },
  { model: 'new_intent', measure: 'feedback only', gold: (r) => r.feedback ?? undefined }
]

t.test('each kind of text, and the sarcastic texts of every kind, counted per model', async (t) => {
  const groups = tally(rows, judges, { sentiment: ['positive', 'positive', 'neutral', 'negative'], new_intent: ['appreciation', 'appreciation', 'complaint', 'complaint'] })
  t.same([...groups.keys()], ['review', 'news', 'sarcastic, every kind'])
  t.same(groups.get('review')?.get('sentiment'), { right: 1, scored: 2 })
  t.same(groups.get('news')?.get('sentiment'), { right: 2, scored: 2 })
  t.same(groups.get('sarcastic, every kind')?.get('sentiment'), { right: 1, scored: 2 }, 'the sarcastic review wrong, the sarcastic news right')
  // new_intent scores only the texts with a feedback label
  t.same(groups.get('review')?.get('new_intent'), { right: 1, scored: 2 })
  t.equal(groups.get('news')?.get('new_intent'), undefined, 'no news text is scored for new_intent')
  t.same(groups.get('sarcastic, every kind')?.get('new_intent'), { right: 0, scored: 1 })
})

t.test('a model whose answers do not match the texts is refused', async (t) => {
  t.throws(() => tally(rows, judges, { sentiment: ['positive'] }), /1 answers for 4 texts/)
})

t.test('the markdown table: a column per model that answered, a blank cell where none is scored, the whole set last', async (t) => {
  const md = everydayMarkdown(rows, judges, { new_intent: ['complaint', 'complaint', 'news', 'news'] }, '2026-11-28')
  t.match(md, /\| kind of text \| new_intent \|\n\|---\|---:\|\n/)
  t.notMatch(md, /\| sentiment/, 'a model that did not answer has no column')
  t.match(md, /\| review \| 0\.50 \(1\/2\) \|/)
  t.ok(md.includes('| news |  |'), 'a blank cell for news')
  t.match(md, /\| all \| 0\.50 \(1\/2\) \|\n$/)
})

t.test('every judge scores some everyday texts, and every text is scored by sentiment, sarcasm and intent', async (t) => {
  const days = everyday()
  for (const j of JUDGES) t.ok(days.filter((r) => j.gold(r) !== undefined).length >= 20, `${j.model} scores at least 20 texts`)
  for (const m of ['sentiment', 'sarcasm', 'intent']) t.ok(days.every((r) => JUDGES.find((j) => j.model === m)?.gold(r) !== undefined), m)
})

t.test('eval/everyday.md agrees with eval/results.md on the whole set (both written by the same npm run eval)', async (t) => {
  const { readFileSync } = await import('node:fs')
  const { join } = await import('node:path')
  const root = join(import.meta.dirname, '..', '..', 'eval')
  const md = readFileSync(join(root, 'everyday.md'), 'utf8')
  const results = readFileSync(join(root, 'results.md'), 'utf8')
  const header = (md.match(/^\| kind of text \|.*$/m)?.[0] ?? '').split('|').map((s) => s.trim()).filter(Boolean)
  const all = (md.match(/^\| all \|.*$/m)?.[0] ?? '').split('|').map((s) => s.trim()).filter(Boolean)
  t.equal(all.length, header.length, 'a figure for every model')
  for (const model of ['sentiment', 'emotion', 'intent', 'new_intent', 'taxonomy']) {
    const line = results.split('\n').find((l) => l.startsWith(`| ${model} v`) && l.includes('everyday') && l.includes('never trained on') && !l.includes('plain') && !l.includes('sarcastic ones'))
    const value = Number(line?.split('|')[4]?.trim())
    const cell = all[header.indexOf(model)] ?? ''
    const [right, scored] = (cell.match(/\((\d+)\/(\d+)\)/)?.slice(1) ?? []).map(Number)
    t.ok(line !== undefined && scored !== undefined && scored > 0, `${model}: both files have the figure`)
    t.equal((right! / scored!).toFixed(3), value.toFixed(3), `${model}: ${cell} against ${value}`)
  }
})
