// A long text read in parts (lib/text/text-parts.ts): short texts are themselves, long ones are their
// sentences grouped into parts of at most `words` words, in order, from their first maxChars characters.
import t from 'tap'
import { textParts } from '../../../lib/text/text-parts.js'

const CFG = { words: 10, maxChars: 10_000 }
const words = (s: string) => s.split(/\s+/).filter((w) => w !== '')
/** a sentence of n words, numbered from `from` */
const sentence = (n: number, from: number) => Array.from({ length: n }, (_, i) => `w${from + i}`).join(' ') + '.'

t.test('a text of at most `words` words is one part, unchanged', async (t) => {
  t.same(textParts('  Great phone.\nLoved it!  ', CFG), ['  Great phone.\nLoved it!  '])
  const ten = sentence(10, 0)
  t.same(textParts(ten, CFG), [ten])
  t.same(textParts('', CFG), [''])
})

t.test('a long text: its sentences grouped into parts of at most `words` words, every word once, in order', async (t) => {
  const text = [sentence(4, 0), sentence(5, 4), sentence(3, 9), sentence(6, 12), sentence(2, 18)].join(' ')
  const parts = textParts(text, CFG)
  t.same(parts, [`${sentence(4, 0)} ${sentence(5, 4)}`, `${sentence(3, 9)} ${sentence(6, 12)}`, sentence(2, 18)], 'a sentence that does not fit starts the next part')
  t.same(parts.flatMap(words), words(text), 'every word once, in order')
})

t.test('a sentence longer than `words` words is cut into pieces of `words` words; lines end sentences', async (t) => {
  const text = `${sentence(3, 0)} ${sentence(23, 3)} ${sentence(2, 26)}`
  const parts = textParts(text, CFG)
  t.ok(parts.every((p) => words(p).length <= CFG.words), parts.map((p) => words(p).length).join(' '))
  t.same(parts.map((p) => words(p).length), [3, 10, 10, 5], 'the long sentence\'s pieces; its rest joins the next sentence')
  t.same(parts.flatMap(words), words(text))
  const lines = `${sentence(6, 0).slice(0, -1)}\n${sentence(6, 6).slice(0, -1)}`
  t.same(textParts(lines, CFG).map((p) => words(p).length), [6, 6], 'a line break ends a sentence without a full stop')
})

t.test('the parts cover the first maxChars characters only', async (t) => {
  const text = Array.from({ length: 500 }, (_, i) => sentence(8, 8 * i)).join(' ')
  const parts = textParts(text, { words: 64, maxChars: 2000 })
  const read = parts.flatMap(words)
  t.same(read, words(text.slice(0, 2000)), 'exactly the words of the first 2,000 characters')
  t.ok(parts.length <= Math.ceil(2 * words(text.slice(0, 2000)).length / 64) + 1, `${parts.length} parts`)
  const huge = textParts('word '.repeat(100_000), { words: 64, maxChars: 8000 })
  t.equal(huge.length, 25, 'a 500,000-character text is read in 25 parts (8,000 characters)')
})
