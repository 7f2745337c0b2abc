// A long text read in parts (lib/text/cnn/parts.ts): short texts are themselves, long ones are their
// sentences grouped into parts of at most `words` words, in order, from their first maxChars characters.
import t from 'tap'
import { partsCount, readInParts, textParts } from '../../../../lib/text/cnn/parts.js'

const CFG = { words: 10, maxChars: 10_000 }
const words = (s: string) => s.split(/\s+/).filter(w => w !== '')
/** a sentence of n words, numbered from `from` */
const sentence = (n: number, from: number) => Array.from({ length: n }, (_, i) => `w${from + i}`).join(' ') + '.'

t.test('a text of at most `words` words is one part, unchanged', async t => {
  t.same(textParts('  Great phone.\nLoved it!  ', CFG), ['  Great phone.\nLoved it!  '])
  const ten = sentence(10, 0)
  t.same(textParts(ten, CFG), [ten])
  t.same(textParts('', CFG), [''])
  const late = ' '.repeat(CFG.maxChars) + sentence(20, 0)
  t.same(textParts(late, CFG), [late], 'no word in the first maxChars characters: the text itself, read whole')
})

t.test('a long text: its sentences grouped into parts of at most `words` words, every word once, in order', async t => {
  const text = [sentence(4, 0), sentence(5, 4), sentence(3, 9), sentence(6, 12), sentence(2, 18)].join(' ')
  const parts = textParts(text, CFG)
  t.same(
    parts,
    [`${sentence(4, 0)} ${sentence(5, 4)}`, `${sentence(3, 9)} ${sentence(6, 12)}`, sentence(2, 18)],
    'a sentence that does not fit starts the next part'
  )
  t.same(parts.flatMap(words), words(text), 'every word once, in order')
})

t.test('a sentence longer than `words` words is cut into pieces of `words` words; lines end sentences', async t => {
  const text = `${sentence(3, 0)} ${sentence(23, 3)} ${sentence(2, 26)}`
  const parts = textParts(text, CFG)
  t.ok(
    parts.every(p => words(p).length <= CFG.words),
    parts.map(p => words(p).length).join(' ')
  )
  t.same(
    parts.map(p => words(p).length),
    [3, 10, 10, 5],
    "the long sentence's pieces; its rest joins the next sentence"
  )
  t.same(parts.flatMap(words), words(text))
  const lines = `${sentence(6, 0).slice(0, -1)}\n${sentence(6, 6).slice(0, -1)}`
  t.same(
    textParts(lines, CFG).map(p => words(p).length),
    [6, 6],
    'a line break ends a sentence without a full stop'
  )
})

t.test('the parts cover the first maxChars characters only', async t => {
  const text = Array.from({ length: 500 }, (_, i) => sentence(8, 8 * i)).join(' ')
  const parts = textParts(text, { words: 64, maxChars: 2000 })
  const read = parts.flatMap(words)
  t.same(read, words(text.slice(0, 2000)), 'exactly the words of the first 2,000 characters')
  t.ok(parts.length <= Math.ceil((2 * words(text.slice(0, 2000)).length) / 64) + 1, `${parts.length} parts`)
  const huge = textParts('word '.repeat(100_000), { words: 64, maxChars: 8000 })
  t.equal(huge.length, 25, 'a 500,000-character text is read in 25 parts (8,000 characters)')
})

t.test('a sentence ends before closing quotes and brackets; the limit never cuts a word', async t => {
  const text = `He said "${sentence(6, 0)}" ${sentence(6, 6)}) ${sentence(5, 12)}`
  t.same(
    textParts(text, { words: 8, maxChars: 10_000 }).map(p => words(p).length),
    [8, 6, 5],
    'the quoted sentence and the bracketed one end where they close'
  )
  const cut = `${sentence(10, 0)} abcdefghij ${sentence(10, 20)}`
  const at = cut.indexOf('abcdefghij') + 5
  const read = textParts(cut, { words: 5, maxChars: at }).flatMap(words)
  t.notOk(read.includes('abcde'), 'the word the limit cuts is left out, not read as "abcde"')
  t.same(read, words(cut.slice(0, at)).slice(0, -1))
})

t.test(
  "readInParts: the mean of the parts' logits, each part weighing its words; no parts: the pass itself",
  async t => {
    // a pass that answers [words, 1] for each part: the weighted mean is sum(w^2) / sum(w), and 1
    const forward = (text: string) => Float64Array.from([words(text).length, 1])
    const text = `${sentence(10, 0)} ${sentence(10, 10)} ${sentence(2, 20)}`
    const z = readInParts(forward, CFG)(text)
    t.same(Array.from(z), [(100 + 100 + 4) / 22, 1], 'a two-word last part weighs 2 of 22')
    t.same(Array.from(readInParts(forward, CFG)(sentence(5, 0))), [5, 1], 'a short text: one part')
    t.equal(readInParts(forward, undefined), forward)
    const shared = new Float64Array(2)
    const reused = (text: string) => {
      shared[0] = words(text).length
      shared[1] = 1
      return shared
    }
    t.same(
      Array.from(readInParts(reused, CFG)(text)),
      [(100 + 100 + 4) / 22, 1],
      'a pass that reuses one buffer gives the same mean'
    )
  }
)

t.test('partsCount: how many parts a text is read in; 1 for a model without parts', async t => {
  const text = [sentence(6, 0), sentence(6, 6), sentence(5, 12)].join(' ')
  t.equal(partsCount(text, CFG), textParts(text, CFG).length)
  t.ok(partsCount(text, CFG) > 1, 'a long text: several parts')
  t.equal(partsCount(text, undefined), 1, 'no parts: read whole')
})
