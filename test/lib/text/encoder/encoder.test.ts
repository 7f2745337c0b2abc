// The text encoder (model-store/text-encoder): its tokenizer, pooling and cache, and the batching
// of texts asked for together.
import t from 'tap'
import { join } from 'node:path'
import { MODEL_STORE } from '../../../helper.js'
import { lengthGroups, loadEncoder, TextEncoder } from '../../../../lib/text/encoder/encoder.js'
import { EncoderTokenizer } from '../../../../lib/text/encoder/tokenizer.js'
import { meanPool } from '../../../../lib/text/encoder/pooling.js'
import { Lru } from '../../../../lib/text/encoder/lru.js'

const DIR = join(MODEL_STORE, 'text-encoder', '1')
const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * (b[i] as number), 0)

t.test('the LRU cache forgets the entry used least recently', async t => {
  const lru = new Lru<string, number>(2)
  lru.set('a', 1)
  lru.set('b', 2)
  t.equal(lru.get('a'), 1)
  lru.set('c', 3)
  t.equal(lru.get('b'), undefined, 'b was the least recently used')
  t.equal(lru.get('a'), 1)
  t.equal(lru.size, 2)
  const none = new Lru<string, number>(0)
  none.set('a', 1)
  t.equal(none.get('a'), undefined, 'a cache of size 0 keeps nothing')
})

t.test('mean pooling skips padding and gives unit vectors', async t => {
  // two texts of two token slots, three dimensions; the second text's second slot is padding
  const states = new Float32Array([1, 0, 0, 0, 1, 0, 0, 2, 0, 100, 100, 100])
  const batch = { ids: new BigInt64Array(4), mask: new BigInt64Array([1n, 1n, 1n, 0n]), rows: 2, width: 2 }
  const [a, b] = meanPool(states, batch, 3)
  t.same(
    Array.from(a!).map(x => x.toFixed(4)),
    ['0.7071', '0.7071', '0.0000']
  )
  t.same(
    Array.from(b!).map(x => x.toFixed(4)),
    ['0.0000', '1.0000', '0.0000'],
    'the padded slot is left out'
  )
})

t.test('the tokenizer: special tokens, a long text cut with its end token kept, padding', async t => {
  const tok = await EncoderTokenizer.load(DIR, { maxTokens: 16, prefix: 'query: ' })
  const short = tok.ids('The food was cold.')
  t.equal(short[0], 0, '<s> first')
  t.equal(short.at(-1), 2, '</s> last')
  const long = tok.ids('word '.repeat(500))
  t.equal(long.length, 16)
  t.equal(long.at(-1), 2, 'the end token is kept')
  const batch = tok.batch([short, [0, 2]])
  t.equal(batch.width, short.length)
  t.equal(batch.ids[batch.width + 2], 1n, 'padded with <pad>')
  t.equal(batch.mask[batch.width + 2], 0n)
  t.equal(batch.mask[batch.width + 1], 1n)
})

t.test('passes of alike lengths: a long text is not padded into a pass of short ones', async t => {
  t.same(lengthGroups([]), [])
  t.same(lengthGroups([12, 12, 12, 12]), [[0, 4]], 'equal lengths: one pass')
  t.same(
    lengthGroups([10, 11, 12, 256]),
    [
      [0, 3],
      [3, 4]
    ],
    'the long text alone'
  )
  const lengths = [3, 5, 8, 8, 9, 40, 41, 60, 200, 256, 256]
  const groups = lengthGroups(lengths)
  t.same(
    groups.flatMap(([a, b]) => Array.from({ length: b - a }, (_, i) => a + i)),
    lengths.map((_, i) => i),
    'every row once, in order'
  )
  const tokens = (g: Array<[number, number]>) => g.reduce((s, [a, b]) => s + 32 + (b - a) * lengths[b - 1]!, 0)
  t.ok(tokens(groups) < tokens([[0, lengths.length]]), `${tokens(groups)} tokens against one pass's`)

  const enc = await loadEncoder(DIR, { threads: 2, maxBatch: 8, cacheSize: 100 })
  const long = 'The parcel came two weeks late and the box was torn open. '.repeat(20)
  const shortOnes = ['Late parcel.', 'Torn box.', 'Great service.']
  const passes = enc.stats.passes
  const vectors = await enc.embed([long, ...shortOnes])
  t.equal(vectors.length, 4)
  t.equal(enc.stats.passes - passes, 2, 'one pass for the short texts, one for the long one')
})

t.test('the encoder', async t => {
  const enc = await loadEncoder(DIR, { threads: 2, maxBatch: 8, cacheSize: 100 })
  t.ok(enc instanceof TextEncoder)
  t.equal(await loadEncoder(DIR, { threads: 2, maxBatch: 8, cacheSize: 100 }), enc, 'loaded once per process')
  const three = ['The food was cold.', 'Das Essen war kalt.', 'Parliament passed the budget on Tuesday.']
  const [cold, kalt, other] = await enc.embed(three)
  t.equal(cold!.length, enc.dims)
  t.ok(Math.abs(dot(cold!, cold!) - 1) < 1e-4, 'unit length')
  const same = dot(cold!, kalt!)
  const unrelated = dot(cold!, other!)
  t.ok(same > unrelated + 0.05, `across languages: ${same} against ${unrelated}`)

  const passes = enc.stats.passes
  const texts = Array.from({ length: 20 }, (_, i) => `Concurrent request number ${i} about a parcel.`)
  const got = await Promise.all(texts.map(x => enc.embed([x])))
  t.equal(got.length, 20)
  t.ok(enc.stats.passes - passes <= 3, `20 concurrent texts in ${enc.stats.passes - passes} passes of at most 8`)

  const hits = enc.stats.hits
  const again = await enc.embed([texts[0]!, texts[0]!])
  t.equal(enc.stats.hits - hits, 2, 'a recent text comes from the cache')
  t.same(Array.from(again[0]!), Array.from(got[0]![0]!))

  const before = enc.stats.texts
  await enc.embed(['A text twice in one call.', 'A text twice in one call.'])
  t.equal(enc.stats.texts - before, 1, 'encoded once')
  t.same(await enc.embed([]), [])
})

t.test('a text read word by word: the ids of the whole text, and where each word begins', async t => {
  const tok = await EncoderTokenizer.load(DIR, { maxTokens: 64, prefix: 'query: ' })
  const texts = [
    ['Angela', 'Merkel', 'besuchte', 'Paris', '.'],
    ["L'Ouest-Éclair", ',', '23-04-1906'],
    ['Zoë', '👍', '🏽', 'naïve', '東京', 'x\u0301']
  ]
  for (const words of texts) {
    const { ids, first } = tok.wordIds(words)
    t.same(ids, tok.ids(words.join(' ')), words.join(' '))
    t.equal(first.length, words.length)
    words.forEach((w, k) => {
      const pieces = tok.pieces(w)
      t.same(ids.slice(first[k], (first[k] as number) + pieces.length), pieces, w)
    })
  }
  const long = tok.wordIds(Array.from({ length: 80 }, () => 'word'))
  t.equal(long.ids.length, 64, 'cut at the length, <s>, the prefix and </s> included')
  t.equal(long.first.length, 64 - 5, 'the words that fit')
  t.equal(long.ids.at(-1), 2, '</s> last')
})

t.test('word states: one row of the encoder per word, the same alone and in a batch', async t => {
  const enc = await loadEncoder(DIR, { threads: 2, maxBatch: 8, cacheSize: 100 })
  const words = ['Angela', 'Merkel', 'besuchte', 'Paris', '.']
  const other = 'The committee met again on Tuesday to discuss the budget of the city'.split(' ')
  const [alone] = await enc.wordStates([enc.tokenizer.wordIds(words)])
  const [, together] = await enc.wordStates([enc.tokenizer.wordIds(other), enc.tokenizer.wordIds(words)])
  t.equal(alone!.length, words.length * enc.dims)
  const row = (v: Float32Array, w: number) => v.subarray(w * enc.dims, (w + 1) * enc.dims)
  const cos = (a: Float32Array, b: Float32Array) => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b))
  for (let w = 0; w < words.length; w++) t.ok(cos(row(alone!, w), row(together!, w)) > 0.98, `${words[w]} in a batch`)
  t.ok(cos(row(alone!, 0), row(alone!, 3)) < 0.95, 'two words, two states')
})

t.test("word states of every token: a row a piece, the words' first pieces among them", async t => {
  const enc = await loadEncoder(DIR, { threads: 2, maxBatch: 8, cacheSize: 100 })
  const words = enc.tokenizer.wordIds(['Angela', 'Merkel', 'besuchte', 'Paris', '.'])
  const [firsts] = await enc.wordStates([words], 'token_states')
  const [every] = await enc.wordStates([words], 'token_states', true)
  t.equal(every!.length, words.ids.length * enc.dims, 'every token, the special ones included')
  t.ok(words.ids.length > words.first.length)
  words.first.forEach((j, w) => {
    const row = every!.subarray(j * enc.dims, (j + 1) * enc.dims)
    t.same(Array.from(row), Array.from(firsts!.subarray(w * enc.dims, (w + 1) * enc.dims)), `word ${w}`)
  })
})
