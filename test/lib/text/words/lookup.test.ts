// The word index that lives in shared memory answers what a Map of the same words answers.
import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildWordIndex, WordIndex } from '../../../../lib/text/words/lookup.js'
import { hasRealModel } from '../../../helper.js'

function mapOf (words: string[]): Map<string, number> {
  const m = new Map<string, number>()
  words.forEach((w, i) => {
    if (!m.has(w)) m.set(w, i)
  })
  return m
}

t.test('rows as a Map gives them: first row of a repeated word, undefined when absent, any script', async t => {
  const words = ['the', 'cat', 'naïve', 'straße', '東京', '😀', 'the', 'ca', 'cats', 'a', '']
  const index = new WordIndex(buildWordIndex(words))
  const map = mapOf(words)
  for (const w of [...words, 'dog', 'c', 'catss', 'naive', '😁', 'th', 'The']) {
    t.equal(index.get(w), map.get(w), JSON.stringify(w))
  }
  t.equal(index.size, words.length)
})

t.test('in shared memory: the same answers, read in another thread', async t => {
  const words = Array.from({ length: 5000 }, (_, i) => `w${(i * 7919) % 4999}`)
  const a = buildWordIndex(words, n => new SharedArrayBuffer(n))
  t.ok(
    a.slots.buffer instanceof SharedArrayBuffer &&
      a.chars.buffer instanceof SharedArrayBuffer &&
      a.starts.buffer instanceof SharedArrayBuffer
  )
  t.equal(a.slots.length & (a.slots.length - 1), 0, 'a power-of-two table')
  t.ok(a.slots.length >= 2 * words.length, 'at most half full')
  const index = new WordIndex(a)
  const map = mapOf(words)
  t.ok(
    words.every(w => index.get(w) === map.get(w)),
    'every word'
  )
  t.equal(index.get('w5000'), undefined)
})

t.test(
  "the word-vector table's whole vocabulary",
  { skip: hasRealModel('word-vectors') ? false : 'table missing' },
  async t => {
    const words = readFileSync(
      join(import.meta.dirname, '..', '..', '..', '..', 'model-store', 'word-vectors', '1', 'vocab.txt'),
      'utf8'
    )
      .split('\n')
      .filter(w => w !== '')
    const index = new WordIndex(buildWordIndex(words))
    const map = mapOf(words)
    let same = 0
    for (const w of words) if (index.get(w) === map.get(w)) same++
    t.equal(same, words.length, `all ${words.length} words`)
    for (const w of ['qwertyuiopasdf', 'NASA', 'zzzz9']) t.equal(index.get(w), map.get(w), w)
  }
)

t.test('a slot table that is not a power of two is refused', async t => {
  t.throws(
    () => new WordIndex({ slots: new Int32Array(3), chars: new Uint16Array(0), starts: new Uint32Array(1) }),
    /power-of-two/
  )
})
