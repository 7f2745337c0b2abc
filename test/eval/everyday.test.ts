// eval/everyday.md: how often each model is right on the everyday texts, by kind of text and for the
// sarcastic texts of every kind.
import t from 'tap'
import { everydayMarkdown, tally, type Answer } from '../../eval/everyday.js'
import { everyday, type Everyday } from '../../training/trainers/mix.js'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const EVAL = join(import.meta.dirname, '..', '..', 'eval')
/** the committed eval/everyday.md's model columns and its whole-set line, cell by cell */
function committedTable (): { header: string[]; all: string[] } {
  const md = readFileSync(join(EVAL, 'everyday.md'), 'utf8')
  const cells = (re: RegExp) =>
    (md.match(re)?.[0] ?? '')
      .split('|')
      .map(s => s.trim())
      .filter(Boolean)
  return { header: cells(/^\| kind of text \|.*$/m), all: cells(/^\| all \|.*$/m) }
}

const row = (domain: string, sentiment: string, sarcastic: boolean, feedback: string | null = null): Everyday => ({
  text: `${domain} ${sentiment}`,
  domain,
  sentiment,
  intent: 'feedback',
  feedback,
  topic: 'NONE',
  sarcastic,
  emotion: null
})
const rows = [
  row('review', 'negative', true, 'complaint'),
  row('review', 'positive', false, 'appreciation'),
  row('news', 'neutral', false),
  row('news', 'negative', true)
]
/** the answers of a model scored on the rows whose `gold` is given, as eval.ts collects them from its everyday sets */
const answered = (gold: (r: Everyday) => string | null, answers: string[]): Answer[] =>
  rows
    .map((r, i) => ({ text: r.text, gold: gold(r), answer: answers[i] as string }))
    .filter((a): a is Answer => a.gold !== null)

t.test('each kind of text, and the sarcastic texts of every kind, counted per model', async t => {
  const groups = tally(rows, {
    sentiment: answered(r => r.sentiment, ['positive', 'positive', 'neutral', 'negative']),
    new_intent: answered(r => r.feedback, ['appreciation', 'appreciation', 'complaint', 'complaint'])
  })
  t.same([...groups.keys()], ['review', 'news', 'sarcastic, every kind'])
  t.same(groups.get('review')?.get('sentiment'), { right: 1, scored: 2 })
  t.same(groups.get('news')?.get('sentiment'), { right: 2, scored: 2 })
  t.same(
    groups.get('sarcastic, every kind')?.get('sentiment'),
    { right: 1, scored: 2 },
    'the sarcastic review wrong, the sarcastic news right'
  )
  // new_intent scores only the texts with a feedback label
  t.same(groups.get('review')?.get('new_intent'), { right: 1, scored: 2 })
  t.equal(groups.get('news')?.get('new_intent'), undefined, 'no news text is scored for new_intent')
  t.same(groups.get('sarcastic, every kind')?.get('new_intent'), { right: 0, scored: 1 })
})

t.test('an answer on a text that is not an everyday text is refused', async t => {
  t.throws(
    () => tally(rows, { sentiment: [{ text: 'not one of them', gold: 'positive', answer: 'positive' }] }),
    /is not an everyday text/
  )
})

t.test(
  'the markdown table: a column per model that answered, a blank cell where none is scored, the whole set last',
  async t => {
    const md = everydayMarkdown(
      rows,
      { new_intent: answered(r => r.feedback, ['complaint', 'complaint', 'news', 'news']) },
      '2026-11-28'
    )
    t.match(md, /\| kind of text \| new_intent \|\n\|---\|---:\|\n/)
    t.notMatch(md, /\| sentiment/, 'a model that did not answer has no column')
    t.match(md, /\| review \| 0\.50 \(1\/2\) \|/)
    t.ok(md.includes('| news |  |'), 'a blank cell for news')
    t.match(md, /\| all \| 0\.50 \(1\/2\) \|\n$/)
  }
)

t.test(
  'eval/everyday.md scores every English classifier on at least 20 texts, ' +
    'and sentiment, sarcasm and intent on every one',
  async t => {
    const { header, all } = committedTable()
    const days = everyday().length
    for (const model of ['sentiment', 'emotion', 'sarcasm', 'intent', 'new_intent', 'taxonomy']) {
      const scored = Number(all[header.indexOf(model)]?.match(/\/(\d+)\)/)?.[1])
      t.ok(scored >= 20, `${model} scores at least 20 texts (${scored})`)
      if (['sentiment', 'sarcasm', 'intent'].includes(model)) t.equal(scored, days, `${model} scores all of them`)
    }
  }
)

t.test(
  'eval/everyday.md agrees with eval/results.md on the whole set (both written by the same npm run eval)',
  async t => {
    const { header, all } = committedTable()
    const results = readFileSync(join(EVAL, 'results.md'), 'utf8')
    t.equal(all.length, header.length, 'a figure for every model')
    for (const model of ['sentiment', 'emotion', 'intent', 'new_intent', 'taxonomy']) {
      const line = results
        .split('\n')
        .find(
          l =>
            l.startsWith(`| ${model} v`) &&
            l.includes('everyday') &&
            l.includes('never trained on') &&
            !l.includes('plain') &&
            !l.includes('sarcastic ones')
        )
      const value = Number(line?.split('|')[4]?.trim())
      const cell = all[header.indexOf(model)] ?? ''
      const [right, scored] = (cell.match(/\((\d+)\/(\d+)\)/)?.slice(1) ?? []).map(Number)
      t.ok(line !== undefined && scored !== undefined && scored > 0, `${model}: both files have the figure`)
      t.equal((right! / scored!).toFixed(3), value.toFixed(3), `${model}: ${cell} against ${value}`)
    }
  }
)
