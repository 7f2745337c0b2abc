// Negation scope (lib/text/words/negation.ts) and what the text classifiers read of it: a feature for each
// word under negation (lib/text/bag/features.ts, only when features.json asks for it) and the mean word
// vector of those words beside the mean of all (lib/text/bag/sentence-input.ts).
import { test } from 'tap'
import { join } from 'node:path'
import { featurise, tokens, type FeatureConfig } from '../../../../lib/text/bag/features.js'
import { isNegator, mayNegate, negationScope } from '../../../../lib/text/words/negation.js'
import { inputDim, negatedWords, sentenceInput } from '../../../../lib/text/bag/sentence-input.js'
import { loadWordVectors, vectorWords } from '../../../../lib/text/words/vectors.js'

const marked = (text: string) => {
  const t = tokens(text, 2000)
  const s = negationScope(t)
  return t.filter((_, i) => s[i] === 1)
}

test('negation reaches from a negating word to the end of its clause', async t => {
  t.same(
    marked("This isn't a good idea, but the music is great."),
    ['a', 'good', 'idea'],
    'ends at a comma; "but" starts a clause of its own'
  )
  t.same(marked("this is n't a new idea ."), ['a', 'new', 'idea'], 'SST spelling: "n\'t" apart')
  t.same(marked('never really good, just fine'), ['really', 'good'])
  t.same(
    marked('dont like it though i tried'),
    ['like', 'it'],
    'tweet spelling without an apostrophe; "though" ends it'
  )
  t.same(marked('No. Not at all!'), ['at', 'all'], 'a mark of punctuation right after the negating word ends it')
  t.same(marked('I love it'), [], 'nothing without a negating word')
  t.ok(isNegator('not') && isNegator("can't") && isNegator('wouldnt') && isNegator('never'))
  t.notOk(isNegator('note') || isNegator('know') || isNegator('nothingness'))
})

test('features: a feature per negated word only when asked, the rest unchanged', async t => {
  const cfg: FeatureConfig = {
    buckets: 1 << 17,
    charNgrams: [3, 5],
    wordBigrams: true,
    maxFeatures: 1500,
    maxChars: 2000
  }
  const text = "I don't like it at all, but the screen is great"
  const plain = featurise(text, cfg)
  t.same(featurise(text, { ...cfg, negation: false }).ids, plain.ids, 'negation: false is the same as no setting')
  const neg = featurise(text, { ...cfg, negation: true })
  t.equal(neg.ids.length, plain.ids.length + 4, 'one more feature for each of "like it at all"')
  const extra = [...neg.ids].filter(id => !plain.ids.includes(id))
  t.equal(extra.length, 4, 'the negated words are features of their own')
  t.same(
    [...neg.ids].filter(id => !extra.includes(id)),
    [...plain.ids],
    'every other feature in the same order'
  )
  t.same(
    featurise('I like it', { ...cfg, negation: true }).ids,
    featurise('I like it', cfg).ids,
    'no negation: the same features'
  )
  t.ok(
    neg.weights.every(w => Math.abs(w - 1 / neg.ids.length) < 1e-9),
    'still the mean of the features'
  )
})

test('word-vector input: the mean of the negated words after the mean of all, when asked', async t => {
  const wv = await loadWordVectors(
    join(import.meta.dirname, '..', '..', '..', '..', 'model-store', 'word-vectors', '1')
  )
  const cfg: FeatureConfig = {
    buckets: 1024,
    charNgrams: [],
    wordBigrams: false,
    maxFeatures: 100,
    maxChars: 2000,
    vectors: 'word-vectors/1'
  }
  const both = { ...cfg, negatedVectors: true }
  t.equal(inputDim(cfg, wv), 100)
  t.equal(inputDim(both, wv), 200)
  t.same(negatedWords("It doesn't work, sadly", 2000), ['work'])
  t.same(
    negatedWords("I can't say it's bad", 2000),
    ['say', 'it', "'s", 'bad'],
    'clitics split as the word-vector table spells them'
  )
  const text = "The battery isn't good enough. I like the screen"
  const one = new Float32Array(100)
  sentenceInput(text, cfg, wv, one)
  const mean = new Float32Array(100)
  wv.sentence(vectorWords(text, 2000), mean)
  t.same(one, mean, 'without negatedVectors: the mean of all words, as before')
  const two = new Float32Array(200)
  sentenceInput(text, both, wv, two)
  t.same(two.subarray(0, 100), mean, 'first the mean of all words')
  const neg = new Float32Array(100)
  wv.sentence(['good', 'enough'], neg)
  t.same(two.subarray(100), neg, 'then the mean of the negated words')
  const none = new Float32Array(200).fill(7)
  sentenceInput('I like the screen', both, wv, none)
  t.ok(
    none.subarray(100).every(x => x === 0),
    'zeros when no word is negated'
  )
})

test('the quick test before tokenising finds every negating word', async t => {
  const texts = [
    "I don't know",
    'dont',
    'it is NOT fine',
    'No.',
    'nobody came',
    'never',
    'cannot',
    'without it',
    'hardly',
    'isnt it',
    'neither nor',
    'so-not-good',
    'x nothing y',
    "can't",
    'wont'
  ]
  for (const s of texts) t.ok(mayNegate(s.toLowerCase()), s)
  t.notOk(mayNegate('i know it is a new economy now'), 'words that merely contain a negating word')
  t.same(negatedWords('I know it is a new economy now', 2000), [])
})
