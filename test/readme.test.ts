// The README's examples: every operation has one, and every shown answer is what the service
// answers (numbers as shown, to 2 decimals). After retraining: npm run readme-examples.
import t from 'tap'
import { readFileSync } from 'node:fs'
import { answer, buildService, findExamples, parseCurl, README, rewrite, rounded } from '../bin/readme-examples.js'

const text = readFileSync(README, 'utf8')
const examples = findExamples(text)

/** Equal, numbers within the rounding the README shows. */
function close (a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= 0.0051
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => close(x, b[i]))
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a)
    const kb = Object.keys(b)
    return (
      ka.length === kb.length &&
      ka.every(k => close((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
    )
  }
  return a === b
}

t.test('the README is a front door: short, a first request early', async t => {
  const lines = text.split('\n')
  t.ok(lines.length <= 200, `${lines.length} lines`)
  const first = lines.findIndex(l => l.startsWith('curl '))
  t.ok(first >= 0 && first < 40, `first request at line ${first + 1}`)
})

t.test('every operation has an example', async t => {
  const paths = new Set(examples.map(e => parseCurl(e.command).url))
  for (const op of [
    'sentiment',
    'emotion',
    'sarcasm',
    'intent',
    'new/intent',
    'taxonomy',
    'ner',
    'keywords',
    'similarity',
    'facial_emotion',
    'object_recognizer'
  ]) {
    t.ok(paths.has(`/v4/${op}`), op)
  }
})

t.test("every shown answer is the service's", { timeout: 300_000 }, async t => {
  const { service, close: stop } = await buildService()
  t.teardown(stop)
  for (const ex of examples) {
    const got = JSON.parse(await answer(service, ex)) as unknown
    let shown: unknown
    try {
      shown = JSON.parse(ex.shown)
    } catch {
      shown = ex.shown
    }
    t.ok(
      close(got, shown),
      `README line ${ex.line + 1} (${parseCurl(ex.command).url}) shows ${ex.shown}; the service answers ` +
        `${JSON.stringify(got)}: run npm run readme-examples`
    )
  }
  // the rewriter puts a wrong answer right, and leaves a right one alone
  const wrong = text.replace(examples[0]!.shown, '{"sentiment":{"positive":0.5}}')
  const fixed = await rewrite(wrong, service)
  t.same(fixed.changed, [examples[0]!.line + 1], 'the changed example is named')
  t.ok(close(JSON.parse(findExamples(fixed.text)[0]!.shown), JSON.parse(examples[0]!.shown)), 'and rewritten')
})

t.test('curl commands as the README writes them', async t => {
  t.same(
    parseCurl('curl -s $B/v4/x -d api_key=$K --data-urlencode \'text=["a b"]\' -F file=@docs/a.jpg -d q="it\'s"'),
    {
      url: '/v4/x',
      form: [
        ['api_key', 'readme-example-key'],
        ['text', '["a b"]'],
        ['q', "it's"]
      ],
      files: [['file', 'docs/a.jpg']]
    }
  )
  t.same(rounded({ a: 0.12345, b: [1, 2.005, 'x'], c: null }), { a: 0.12, b: [1, 2.01, 'x'], c: null })
})
