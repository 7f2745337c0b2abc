// npm run train -- label: a classifier's scores for unlabelled texts, in order, as the model gives them.
import t from 'tap'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execFileSync } from 'node:child_process'
import { hasRealModel, tempDir } from '../helper.js'
import { label, readTexts, type Labelled } from '../../training/heads/label.js'

t.test('readTexts: a text a line, or the text of each JSON line', async t => {
  t.same(readTexts('first one\n\n{"text": "second", "id": 2}\n  third  \n'), ['first one', 'second', '  third  '])
  t.throws(() => readTexts('{"body": "no text"}'), /without a "text" string/)
})

const texts = [
  'I love this phone, it is great',
  'The delivery was late and the box was broken',
  'The meeting is at noon'
]
const sentiment = { skip: hasRealModel('sentiment') ? false : 'model-store/sentiment missing' }
t.test('label: scores by label summing to 1, the top label their argmax, in input order', sentiment, async t => {
  const rows = await label('sentiment', texts)
  t.same(
    rows.map(r => r.text),
    texts
  )
  for (const r of rows) {
    t.same(Object.keys(r.scores), ['negative', 'neutral', 'positive'])
    t.ok(Math.abs(Object.values(r.scores).reduce((a, b) => a + b, 0) - 1) < 1e-5)
    t.equal(r.top, Object.entries(r.scores).sort((a, b) => b[1] - a[1])[0]![0])
  }
  t.equal(rows[0]!.top, 'positive')
  t.equal(rows[1]!.top, 'negative')
})

t.test('the command writes one JSON line a text', sentiment, async t => {
  const dir = tempDir(t)
  const input = join(dir, 'texts.txt')
  const output = join(dir, 'labelled.jsonl')
  writeFileSync(input, texts.join('\n'))
  const root = join(import.meta.dirname, '..', '..')
  const args = ['--import', 'tsx', 'training/train.ts', 'label', 'sentiment', input, output]
  execFileSync(process.execPath, args, { cwd: root, stdio: 'ignore' })
  const lines = readFileSync(output, 'utf8')
    .trim()
    .split('\n')
    .map(l => JSON.parse(l) as Labelled)
  t.same(
    lines.map(l => l.text),
    texts
  )
  t.same(
    lines.map(l => l.top),
    (await label('sentiment', texts)).map(r => r.top)
  )
})
