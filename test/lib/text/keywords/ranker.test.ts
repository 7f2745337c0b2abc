// Keyphrase candidates and features (no model needed), and the trained ranker through its loader.
import t from 'tap'
import { join } from 'node:path'
import { analyse, MAX_CHARS } from '../../../../lib/text/keywords/candidates.js'
import { featurise, FEATURES, type KeywordTables } from '../../../../lib/text/keywords/features.js'
import { phraseKey } from '../../../../lib/text/keywords/tokens.js'
import { loadKeywords, type Keyword, type KeywordInput } from '../../../../lib/text/keywords/ranker.js'
import { stopwordKeyphrases, stopwordsOf } from '../../../../lib/text/keywords/stopwords.js'
import { scanStore } from '../../../../lib/serving/registry.js'
import { getTf } from '../../../../lib/runtime/tf.js'
import type { LoadedModel } from '../../../../lib/serving/loaded-model.js'
import { scoreDoc } from '../../../../training/readers/keywords.js'
import { hasRealModel, MODEL_STORE } from '../../../helper.js'

const ABSTRACT =
  'Convolutional neural networks for image classification. We train convolutional neural networks on large ' +
  'image collections and compare them with support vector machines. Image classification accuracy improves ' +
  'when the neural networks are deeper.'

const EMPTY: KeywordTables = { docs: 1, wordDf: {}, phrase: {}, wordGold: {}, headGold: {} }

t.test('phrase keys: Porter2 stems of each word, hyphens split, case ignored', async t => {
  t.equal(phraseKey('Neural Networks'), phraseKey('neural network'))
  t.equal(phraseKey('image classification'), 'imag classif')
  t.equal(phraseKey('separate-account industry'), 'separ account industri')
  t.equal(phraseKey(''), '')
})

t.test('candidates: noun phrases and their tails; hyphenated compounds stay one word', async t => {
  const a = analyse('New entrants are shaking up the separate-account industry by supplying Web-based platforms.')
  const keys = a.candidates.map(c => c.key)
  t.ok(keys.includes('separ account industri'))
  t.ok(keys.includes('web base platform'), 'a compound ending in a participle opens a noun phrase')
  t.ok(keys.includes('industri'))
  t.notOk(
    keys.some(k => k.split(' ').includes('the')),
    'no stopwords'
  )
  t.same(new Set(keys).size, keys.length, 'one candidate per key')
  const c = a.candidates.find(x => x.key === 'separ account industri')!
  t.equal(c.surface, 'separate-account industry')
  t.ok(c.maximal)
})

t.test('features: one finite row per candidate; texts are cut at MAX_CHARS', async t => {
  const a = analyse(ABSTRACT)
  const rows = featurise(a, EMPTY)
  t.equal(rows.length, a.candidates.length)
  t.ok(rows.every(r => r.length === FEATURES.length && r.every(Number.isFinite)))
  // "constructor" must not read Object.prototype out of a JSON table
  t.ok(featurise(analyse('The constructor of the prototype object.'), EMPTY).every(r => r.every(Number.isFinite)))
  t.same(analyse('').candidates, [])
  const long = analyse('image classification '.repeat(20_000))
  t.ok(long.tokens <= MAX_CHARS / 10, `${long.tokens} tokens`)
  const t0 = performance.now()
  t.same(analyse('a'.repeat(100_000)).candidates, [], 'a run without spaces is no phrase')
  t.same(analyse('x-'.repeat(50_000)).candidates, [])
  t.ok(
    performance.now() - t0 < 10_000,
    `(a guard against unbounded work, not a speed target) long runs skipped in ${Math.round(performance.now() - t0)} ms`
  )
})

t.test('surface forms: sentence-initial capitals dropped, names kept', async t => {
  const surfaces = analyse(
    'Neural networks learn. Deep neural networks learn more. Microsoft builds them.'
  ).candidates.map(c => c.surface)
  t.ok(surfaces.includes('neural networks'), surfaces.join(', '))
  t.ok(surfaces.includes('Microsoft'), surfaces.join(', '))
})

t.test('F1@10: precision over what is returned, recall over every gold key', async t => {
  t.same(scoreDoc(['a', 'b'], new Set(['a', 'c', 'd', 'e'])), { p: 0.5, r: 0.25, f1: 1 / 3 })
  t.same(scoreDoc([], new Set(['a'])), { p: 0, r: 0, f1: 0 })
  t.equal(scoreDoc(['a', 'a', 'b'], new Set(['a', 'b'])).p, 1, 'repeats count once')
})

t.test(
  'the trained ranker through its loader',
  { skip: hasRealModel('keywords') ? false : 'model-store/keywords not trained yet' },
  async t => {
    const { tf } = await getTf()
    const info = (await scanStore(MODEL_STORE)).find(i => i.name === 'keywords')!
    t.equal(info.manifest.kind, 'keyword-ranker')
    t.same(info.manifest.languages, ['en'], "the other languages are keywords-multilingual's")
    const f1 = info.manifest.metrics.find(m => m.metric === 'F1@10')
    t.ok(f1 !== undefined && f1.value >= 0.3, `validation F1@10 ${f1?.value}`)
    const model = (await loadKeywords(info.dir, info.manifest, tf, { imageMaxPixels: 0 })) as LoadedModel<
      KeywordInput,
      Keyword[]
    >
    t.teardown(() => model.dispose())
    const run = async (texts: string[]) => model.predict(texts.map(text => ({ text, lang: 'en' })))

    const [ks] = await run([ABSTRACT])
    const words = ks!.map(k => k.keyword.toLowerCase())
    t.ok(words.slice(0, 5).includes('image classification'), words.join(', '))
    t.ok(words.slice(0, 5).includes('convolutional neural networks'), words.join(', '))
    t.ok(ks!.length > 0 && ks!.length <= 10)
    t.ok(
      ks!.every(
        (k, i) =>
          k.confidence_score >= 0 &&
          k.confidence_score <= 1 &&
          (i === 0 || k.confidence_score <= ks![i - 1]!.confidence_score)
      )
    )
    t.equal(new Set(words).size, words.length, 'no duplicates')

    t.same(await run(['', 'ok', '   ', '!!!', '42']), [[], [], [], [], []], 'nothing to rank: empty lists')

    const texts = [
      ABSTRACT,
      'ok',
      'Stock markets fell sharply after the central bank raised interest rates.',
      'Fuzzy logic controllers for robot arms.'
    ]
    const batch = await run(texts)
    for (const [i, text] of texts.entries()) t.same(batch[i], (await run([text]))[0], `text ${i}: batch = alone`)
    t.same(await run(texts), batch, 'deterministic')

    const long = (ABSTRACT + ' ').repeat(600).slice(0, 100_000)
    const t0 = performance.now()
    const [lk] = await run([long])
    // a guard against a hang or a quadratic path, not a speed target (the load test prints those)
    t.ok(performance.now() - t0 < 60_000, `100,000 characters in ${Math.round(performance.now() - t0)} ms`)
    t.ok(lk!.length > 0 && lk!.length <= 10)

    const many = Array.from(
      { length: 1000 },
      (_, i) => `Report ${i} on wireless sensor networks and energy-efficient routing protocols.`
    )
    const t1 = performance.now()
    const out = await run(many)
    t.equal(out.length, 1000)
    t.ok(performance.now() - t1 < 15_000, `1000 short texts in ${Math.round(performance.now() - t1)} ms`)
  }
)

t.test(
  'the model folder stays small',
  { skip: hasRealModel('keywords') ? false : 'model-store/keywords not trained yet' },
  async t => {
    const { statSync, readdirSync } = await import('node:fs')
    const dir = join(MODEL_STORE, 'keywords', '1')
    const bytes = readdirSync(dir).reduce((s, f) => s + statSync(join(dir, f)).size, 0)
    t.ok(bytes < 5 * 1024 * 1024, `${(bytes / 1024 / 1024).toFixed(2)} MB`)
  }
)

t.test('the stopword ranker (es, nl, de): content-word phrases, best first, none inside a better one', async t => {
  const text =
    'Die Bundesregierung plant neue Regeln für erneuerbare Energien.\n\nErneuerbare   Energien sollen bis 2030 die ' +
      'Hälfte des Strombedarfs decken. Kritiker halten die Regeln für erneuerbare Energien für zu schwach.'
  const got = stopwordKeyphrases(text, 'de', 10)
  t.ok(got.length > 0 && got.length <= 10)
  t.ok(
    got[0]!.confidence_score > 0.5 && got[0]!.confidence_score < 1,
    'the best scores above the typical candidate, short of certainty'
  )
  t.ok(
    got.every(k => !/\s\p{Ll}+$/u.test(k.keyword)),
    `German phrases end on a capitalised word (a noun): ${got.map(k => k.keyword).join(', ')}`
  )
  const stop = stopwordsOf('de')
  t.ok(stop.has('die') && stop.has('für'), 'the German stopword list is loaded')
  for (const [i, k] of got.entries()) {
    t.ok(k.confidence_score >= 0 && k.confidence_score <= 1)
    if (i > 0) t.ok(k.confidence_score <= got[i - 1]!.confidence_score, 'best first')
    const words = k.keyword.toLowerCase().split(' ')
    t.notOk(
      words.some(w => stop.has(w)),
      `no stopword in "${k.keyword}"`
    )
    t.ok(words.length <= 4, 'at most 4 words')
    t.notMatch(k.keyword, /\s{2,}|\n/, 'spacing normalised')
    for (const better of got.slice(0, i)) {
      t.notOk(
        ` ${better.keyword.toLowerCase()} `.includes(` ${k.keyword.toLowerCase()} `),
        `"${k.keyword}" is not inside "${better.keyword}"`
      )
    }
  }
  t.equal(got[0]?.keyword.toLowerCase(), 'erneuerbare energien', got.map(k => k.keyword).join(', '))
  t.same(stopwordKeyphrases('', 'de', 10), [])
  t.same(stopwordKeyphrases('und oder aber ... !', 'de', 10), [], 'stopwords and punctuation only')
  t.equal(stopwordKeyphrases(text, 'de', 2).length, 2, 'top is respected')
  // the cut at 20,000 characters: a phrase only past it is never seen
  t.notOk(
    stopwordKeyphrases('x '.repeat(10_000) + 'Quantencomputer Quantencomputer', 'de', 10).some(k =>
      /quanten/i.test(k.keyword)
    )
  )
})

t.test('the stopword ranker: noun-phrase patterns with word classes, names whole, no ties at the top', async t => {
  const { parseWordClasses } = await import('../../../../lib/text/keywords/stopwords.js')
  // word classes as pos.json holds them (training/trainers/keywords-pos.ts); a small hand-made table here
  const classes = parseWordClasses(
    JSON.stringify({
      es: { verbs: ['proporciona', 'evitar'], adjectives: ['compleja', 'numéricas'], function: ['muy'] },
      nl: { verbs: ['sprak', 'werken'], adjectives: ['nieuwe'], function: ['gisteren'] }
    })
  )
  const es = stopwordKeyphrases(
    'La dinámica de Langevin compleja proporciona un enfoque para evitar el problema del signo en simulaciones ' +
      'numéricas con un peso de Boltzmann.',
    'es',
    10,
    classes.get('es')
  )
  const esKeys = es.map(k => k.keyword.toLowerCase())
  t.ok(
    esKeys.includes('dinámica de langevin compleja') && esKeys.includes('problema del signo'),
    `Spanish nouns linked by de/del stay one phrase: ${esKeys.join(', ')}`
  )
  t.notOk(
    esKeys.some(k => /proporciona|evitar/.test(k)),
    'no phrase holds a verb'
  )
  t.notOk(
    esKeys.some(k => /^(de|del) | (de|del)$/.test(k)),
    'no phrase begins or ends on a link word'
  )
  t.notOk(
    esKeys.some(k => /^(compleja|numéricas)\b/.test(k)),
    'no Spanish phrase begins with an adjective'
  )
  const nl = stopwordKeyphrases(
    'De minister-president sprak gisteren in Den Haag over de nieuwe klimaatwet. Bij Bol.com werken duizenden mensen.',
    'nl',
    10,
    classes.get('nl')
  )
  const nlKeys = nl.map(k => k.keyword)
  t.ok(
    nlKeys.includes('Bol.com') && nlKeys.includes('minister-president'),
    `names with dots and hyphens stay whole: ${nlKeys.join(', ')}`
  )
  t.notOk(
    nlKeys.some(k => /sprak|werken|gisteren/.test(k)),
    'verbs and adverbs end phrases'
  )
  t.notOk(
    nlKeys.some(k => /nieuwe$/.test(k)),
    'no Dutch phrase ends on an adjective'
  )
  const scores = nl.map(k => k.confidence_score)
  t.equal(new Set(scores.slice(0, 2)).size, 2, `the first two do not tie: ${scores.join(', ')}`)
  const de = stopwordKeyphrases('Die Kanzlerin besuchte am Montag die Stadt Paris.', 'de', 10)
  t.notOk(
    de.some(k => /besuchte/.test(k.keyword)),
    `German phrases do not end on (lower-case) verbs: ${de.map(k => k.keyword).join(', ')}`
  )
})

t.test('English candidates keep a dotted name whole ("Bol.com"), not initials or abbreviations', async t => {
  const { analyse } = await import('../../../../lib/text/keywords/candidates.js')
  const a = analyse('I ordered a phone from Bol.com and the delivery was fast.')
  const surfaces = a.candidates.map(c => c.surface)
  t.ok(surfaces.includes('Bol.com'), surfaces.join(', '))
  t.notOk(surfaces.includes('Bol') || surfaces.includes('com'), 'not cut in pieces')
  const b = analyse('See e.g. the U.S. report on growth.')
  t.notOk(
    b.candidates.some(c => /e\.g/.test(c.surface)),
    b.candidates.map(c => c.surface).join(', ')
  )
})
