import { test } from 'tap'
import { join } from 'node:path'
import { loadWordVectors, vectorWords } from '../../../../lib/text/words/vectors.js'

const dir = join(import.meta.dirname, '..', '..', '..', '..', 'model-store', 'word-vectors', '1')

test('vectorWords splits clitics as GloVe spelled them and keeps inner dots and hyphens', async t => {
  t.same(vectorWords("Don't, it's well-known: Bol.com can't!"), [
    'do',
    "n't",
    'it',
    "'s",
    'well-known',
    'bol.com',
    'ca',
    "n't"
  ])
  t.same(vectorWords('  ...  '), [])
})

test('the shared table: known words, SIF weights that fall with frequency, unit sentence vectors', async t => {
  const wv = await loadWordVectors(dir)
  t.equal(wv.dim, 100)
  t.ok(wv.size >= 50_000)
  t.equal(wv.row('the'), 0, 'rows are in frequency order')
  t.ok(wv.row('kitten') > 0)
  t.equal(wv.row('qqqxqqq'), -1)
  t.ok(wv.sif(wv.row('the')) < 0.05 && wv.sif(wv.row('kitten')) > 0.9, 'frequent words weigh little')
  t.equal(await loadWordVectors(dir), wv, 'one table per thread')
  const v = (s: string) => {
    const o = new Float64Array(wv.dim)
    wv.sentence(vectorWords(s), o)
    return o
  }
  const cos = (a: Float64Array, b: Float64Array) => a.reduce((x, y, i) => x + y * (b[i] as number), 0)
  const cat = v('A cat is sitting on the mat.')
  t.ok(Math.abs(cos(cat, cat) - 1) < 1e-9)
  t.ok(
    cos(cat, v('A kitten sits on a rug.')) > cos(cat, v('The stock market fell sharply today.')) + 0.2,
    'a paraphrase is nearer than an unrelated sentence'
  )
  const none = new Float64Array(wv.dim)
  t.equal(wv.sentence(['qqqxqqq'], none), 0)
  t.ok(none.every(x => x === 0))
})

test('a truncated table is refused with a message naming it', async t => {
  const { mkdtemp, cp, truncate } = await import('node:fs/promises')
  const { tmpdir } = await import('node:os')
  const bad = await mkdtemp(join(tmpdir(), 'wv-'))
  await cp(dir, bad, { recursive: true })
  await truncate(join(bad, 'vectors.bin'), 1000)
  await t.rejects(loadWordVectors(bad), /incomplete/)
})
