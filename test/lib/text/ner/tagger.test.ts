// The NER building blocks: tokens and offsets, hashed features, noun forms and name lists, the
// BIOES scheme, decoding and quantisation (the loader's tests: ner-loader.test.ts).
import t from 'tap'
import {
  FEATURES,
  LEXICON_SIZE,
  NounForms,
  featurise,
  lexiconKey,
  shape,
  tokenize
} from '../../../../lib/text/ner/features.js'
import { LABELS, NUM_LABELS, allowed, canEnd, withEnds, withoutEnds } from '../../../../lib/text/ner/labels.js'
import { MASK, Scratch, marginals, marginalsLog, viterbi } from '../../../../lib/text/ner/decode.js'
import { quantise } from '../../../../lib/text/ner/tagger.js'

t.test('tokens carry UTF-16 offsets into the original text', async t => {
  const text =
    "Zoë 👍🏽 said:\r\n\r\nO'Neill met the U.S. envoy " +
    "in São Paulo-Süd 𝒳 (Merkel's aide), 1,000.5 km."
  const toks = tokenize(text)
  for (const k of toks) t.equal(text.slice(k.start, k.end), k.text)
  const words = toks.map(k => k.text)
  t.ok(words.includes('Zoë'))
  t.ok(words.includes('👍'), 'an emoji is one token, never half a surrogate pair')
  t.ok(words.includes("O'Neill"))
  t.ok(words.includes('U.S.'))
  t.ok(words.includes('Paulo-Süd'))
  t.ok(words.includes('Merkel') && words.includes("'s"), 'English clitics apart')
  t.ok(words.includes('1,000.5'))
  t.ok(words.includes('𝒳'))
})

t.test('Dutch keeps its apostrophe endings on the word, English splits clitics off', async t => {
  t.same(
    tokenize("de auto's van Israëli's, zo'n dag", Infinity, 'nl').map(k => k.text),
    ['de', "auto's", 'van', "Israëli's", ',', "zo'n", 'dag']
  )
  t.same(
    tokenize("Merkel's aide didn't", Infinity, 'en')
      .map(k => k.text)
      .slice(0, 3),
    ['Merkel', "'s", 'aide']
  )
  t.same(
    tokenize('Hr. J. Smith (Acme Corp.) am 18. Mai -- ok', Infinity, 'de').map(k => k.text),
    ['Hr.', 'J.', 'Smith', '(', 'Acme', 'Corp.', ')', 'am', '18.', 'Mai', '--', 'ok']
  )
})

t.test('a cut text never ends in a partial token', async t => {
  const text = 'Paris ' + '😀'.repeat(10)
  const toks = tokenize(text, 9) // cuts the second emoji in half
  t.same(
    toks.map(k => k.text),
    ['Paris', '😀']
  )
  t.same(tokenize('', 10), [])
})

t.test('every token gets FEATURES ids within the buckets, deterministically', async t => {
  const ids = featurise(['Angela', 'Merkel', 'traf', 'Macron', '.'], 1024)
  t.equal(ids.length, 5 * FEATURES)
  t.ok(ids.every(x => x >= 0 && x < 1024))
  t.same(featurise(['Angela', 'Merkel', 'traf', 'Macron', '.'], 1024), ids)
  // a word's own features depend on its case, its neighbours' on theirs
  t.not(featurise(['Paris'], 1 << 20).join(), featurise(['paris'], 1 << 20).join())
  // the lexicon changes only the lexicon templates
  const lex = new Uint8Array(LEXICON_SIZE)
  lex[lexiconKey('paris')] = 4
  const a = featurise(['in', 'Paris'], 1 << 20, new Uint8Array(LEXICON_SIZE))
  const b = featurise(['in', 'Paris'], 1 << 20, lex)
  t.equal(
    [...a].filter((x, i) => x !== b[i]).length,
    5,
    'own word: 1 + 2 pairs + with its noun class; the neighbour: 1 pair'
  )
  t.equal(shape('McDonald'), 'XxXx')
  t.equal(shape('1996-08-22'), 'd-d-d')
})

t.test('German noun forms: a form, a compound ending in one, neither; only the noun templates change', async t => {
  const nouns = NounForms.of(['Anschlag', 'Anschläge', 'Kollegen', 'Festival', 'Festival'])
  t.equal(nouns.hashes.length, 4, 'one hash per distinct form')
  t.ok(
    nouns.hashes.every((h, i) => i === 0 || h > (nouns.hashes[i - 1] as number)),
    'ascending'
  )
  t.equal(nouns.classOf('Festival'), 'n')
  t.equal(nouns.classOf('Anschläge'), 'n')
  t.equal(nouns.classOf('Terroranschlag'), 'c', 'the last part, capitalised, is a noun form')
  t.equal(nouns.classOf('Parteikollegen'), 'c')
  t.equal(nouns.classOf('Rostock'), 'o')
  t.equal(nouns.classOf('festival'), 'o', 'forms are matched as written')
  t.equal(nouns.classOf('Xanschlag'), 'o', 'a compound needs 2+ letters before its last part')
  t.notOk(nouns.has('Anschlage'))
  // rebuilt from its hashes (as the loader does), it answers the same
  const again = new NounForms(new Uint32Array(Int32Array.from(new Int32Array(nouns.hashes.buffer)).buffer))
  for (const w of ['Festival', 'Terroranschlag', 'Rostock']) t.equal(again.classOf(w), nouns.classOf(w), w)
  const words = ['Der', 'Terroranschlag', 'in', 'Rostock', '.']
  const plain = featurise(words, 1 << 20)
  const known = featurise(words, 1 << 20, undefined, nouns)
  const changed = new Set<number>()
  for (let i = 0; i < plain.length; i++) if (plain[i] !== known[i]) changed.add(i % FEATURES)
  t.same(
    [...changed].sort((a, b) => a - b),
    [FEATURES - 4, FEATURES - 3, FEATURES - 2, FEATURES - 1],
    'the four noun templates, the last ones'
  )
})

t.test('name lists add their marks to the noun class: F first name, L surname, P place', async t => {
  const nouns = NounForms.of(['Haus', 'Koch'], {
    first: ['Angela', 'Wolf'],
    last: ['Merkel', 'Wolf', 'Koch'],
    place: ['Rostock', 'Haus', 'Merkel']
  })
  t.equal(nouns.classOf('Angela'), 'oF')
  t.equal(nouns.classOf('Wolf'), 'oFL', 'in two lists: both marks')
  t.equal(nouns.classOf('Merkel'), 'oLP')
  t.equal(nouns.classOf('Haus'), 'nP', 'a noun form that is also a place keeps both')
  t.equal(nouns.classOf('Koch'), 'nL')
  t.equal(nouns.classOf('Rostocker'), 'o', 'whole words only')
  t.equal(nouns.classOf('rostock'), 'o', 'as written')
  // rebuilt from its hashes (as the loader does), it answers the same
  const again = new NounForms(nouns.hashes, nouns.names)
  for (const w of ['Angela', 'Wolf', 'Haus', 'Rostocker']) t.equal(again.classOf(w), nouns.classOf(w), w)
  // without name lists the classes are the noun forms' alone
  t.equal(NounForms.of(['Haus']).classOf('Merkel'), 'o')
  const words = ['Angela', 'Merkel', 'in', 'Rostock']
  const plain = featurise(words, 1 << 20, undefined, NounForms.of(['Haus', 'Koch']))
  const named = featurise(words, 1 << 20, undefined, nouns)
  const changed = new Set<number>()
  for (let i = 0; i < plain.length; i++) if (plain[i] !== named[i]) changed.add(i % FEATURES)
  t.same(
    [...changed].sort((a, b) => a - b),
    [FEATURES - 4, FEATURES - 3, FEATURES - 2, FEATURES - 1],
    'only the four noun templates see them'
  )
})

t.test(
  'a caseless word list (English words mostly written in lower case) is looked up lower-cased, names in either case',
  async t => {
    const words = NounForms.of(
      ['hello', 'click', 'target'],
      { first: ['Sarah'], last: ['Patel'], place: ['Denver'] },
      true
    )
    t.equal(words.classOf('Hello'), 'n', 'a capitalised common word is still a common word')
    t.equal(words.classOf('hello'), 'n')
    t.equal(words.classOf('CLICK'), 'n')
    t.equal(words.classOf('Sarah'), 'oF')
    t.equal(words.classOf('sarah'), 'oF', 'a lower-case name keeps its mark')
    t.equal(words.classOf('Denver'), 'oP')
    t.equal(words.classOf('Helloo'), 'o', 'whole words only, no compounds')
    // the same list without caseless is looked up as written
    t.equal(NounForms.of(['hello']).classOf('Hello'), 'o')
    // rebuilt from its hashes (as the loader does, with the model's caseless flag), it answers the same
    const again = new NounForms(words.hashes, words.names, true)
    for (const w of ['Hello', 'sarah', 'Denver', 'Helloo']) t.equal(again.classOf(w), words.classOf(w), w)
  }
)

t.test('BIOES: I-X and E-X only continue X, and every entity ends with E-X or S-X', async t => {
  const L = (name: string) => LABELS.indexOf(name as (typeof LABELS)[number])
  const [B_PER, I_PER, E_PER, S_PER, B_ORG, S_ORG, B_LOC, S_LOC] = [
    'B-PER',
    'I-PER',
    'E-PER',
    'S-PER',
    'B-ORG',
    'S-ORG',
    'B-LOC',
    'S-LOC'
  ].map(L) as [number, number, number, number, number, number, number, number]
  t.notOk(allowed(-1, I_PER))
  t.notOk(allowed(-1, E_PER))
  t.notOk(allowed(0, I_PER))
  t.notOk(allowed(B_ORG, I_PER), 'another type')
  t.notOk(allowed(I_PER, B_PER), 'an open entity must end first')
  t.notOk(allowed(B_PER, 0))
  t.notOk(allowed(E_PER, I_PER))
  t.ok(allowed(B_PER, I_PER))
  t.ok(allowed(I_PER, E_PER))
  t.ok(allowed(B_PER, E_PER))
  t.ok(allowed(E_PER, B_PER))
  t.ok(allowed(S_PER, S_ORG))
  t.ok(allowed(-1, S_PER))
  t.ok(allowed(0, 0))
  t.same([0, B_PER, I_PER, E_PER, S_PER].map(canEnd), [true, false, false, true, true])
  // the corpora's IOB2 labels (B and I only) get their ends, and lose them again
  const bio = Uint8Array.from([0, B_PER, I_PER, B_PER, 0, B_LOC, L('I-LOC'), L('I-LOC')])
  const bioes = withEnds(bio)
  t.same([...bioes], [0, B_PER, E_PER, S_PER, 0, B_LOC, L('I-LOC'), L('E-LOC')])
  t.same([...withoutEnds(bioes)], [...bio])
  t.same([...withEnds([S_LOC])], [S_LOC], 'already ended')
  // emissions that prefer an ill-formed sequence (O, I-PER, then B-PER at the end) still decode to a well-formed one
  const E = new Float32Array(3 * NUM_LABELS)
  E[0] = 1
  E[NUM_LABELS + I_PER] = 5
  E[NUM_LABELS + B_PER] = 4
  E[2 * NUM_LABELS + B_PER] = 5
  const T = new Float32Array((NUM_LABELS + 1) * NUM_LABELS)
  const out = viterbi(E, T, 3, new Uint8Array(3), new Scratch())
  t.ok(
    allowed(-1, out[0] as number) &&
      allowed(out[0] as number, out[1] as number) &&
      allowed(out[1] as number, out[2] as number),
    `${[...out]}`
  )
  t.ok(canEnd(out[2] as number), 'the last token closes its entity')
  const p = marginals(E, T, 3, out, 1, new Scratch())
  t.ok(p.every(x => x > 0 && x <= 1))
  t.equal(MASK.length, (NUM_LABELS + 1) * NUM_LABELS)
})

t.test(
  'marginals: the probability-space pass agrees with the log-space one, and falls back to it where it would underflow',
  async t => {
    let seed = 7
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    }
    let worst = 0
    for (let trial = 0; trial < 400; trial++) {
      const n = 1 + Math.floor(rand() * 30)
      // score spreads from a unit to thousands, temperatures from 0.5 to 45: the wide ones take the log-space path
      const spread = [1, 10, 100, 3000][trial % 4] as number
      const temperature = [0.5, 1, 8, 45][Math.floor(trial / 4) % 4] as number
      const E = Float32Array.from({ length: n * NUM_LABELS }, () => (rand() - 0.5) * spread)
      const T = Float32Array.from({ length: (NUM_LABELS + 1) * NUM_LABELS }, () => (rand() - 0.5) * spread)
      const labels = viterbi(E, T, n, new Uint8Array(n), new Scratch())
      const fast = marginals(E, T, n, labels, temperature, new Scratch())
      const slow = marginalsLog(E, T, n, labels, temperature, new Scratch())
      for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs((fast[i] as number) - (slow[i] as number)))
      if (!fast.every(p => p > 0 && p <= 1 + 1e-9)) t.fail(`trial ${trial}: ${[...fast]}`)
    }
    t.ok(worst < 1e-9, `largest difference ${worst}`)
  }
)

t.test('uint8 quantisation keeps 0 exact and the rest within half a step', async t => {
  const w = new Float32Array([0, 1.5, -2, 0.01, 3.2])
  const q = quantise(w)
  t.equal(q.dequantised[0], 0)
  for (let i = 0; i < w.length; i++) {
    t.ok(Math.abs((q.dequantised[i] as number) - (w[i] as number)) <= q.scale / 2 + 1e-6)
  }
})
