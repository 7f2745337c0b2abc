// The Latin-letter refiner of language detection: romanised Hindi answered Hindi and routed to the Hindi
// models, which texts the refiner reads and what its answer changes, and detectFor asking it only when needed.
import t from 'tap'
import { buildWithRealModels, hasRealModel } from '../../helper.js'
import { post, type Guess } from './language-detection-fixture.js'

const hinglish = ['language_detection', 'sentiment', 'sentiment-multilingual', 'emotion', 'emotion-multilingual']
t.test(
  'romanised Hindi: the refiner answers Hindi, lang_code omitted routes it to the Hindi model; English stays English',
  { skip: hinglish.every(hasRealModel) ? false : 'models not trained' },
  async t => {
    const app = await buildWithRealModels(t, hinglish)
    for (const text of [
      'yaar aaj ka match dekh ke bahut maza aa gaya, kya khela bhai ne',
      'mujhe yeh phone bilkul pasand nahi aaya, paise barbaad ho gaye'
    ]) {
      const g = (await post(app, '/v4/language_detection', { text })).json() as Guess
      t.match(g, { output: 'Hindi', lang_code: 'hi' }, text)
      t.ok(g.prob >= 0.8 && g.prob <= 1, String(g.prob))
      const auto = (await post(app, '/v4/sentiment', { text })).json() as Record<string, unknown>
      const given = (await post(app, '/v4/sentiment', { text, lang_code: 'hi' })).json() as Record<string, unknown>
      t.match(auto, { lang_code: 'hi', lang_source: 'detected' })
      t.same(auto.sentiment, given.sentiment)
      // an operation without Hindi routes it as before the refiner (English), not a 400
      const emotion = await post(app, '/v4/emotion', { text })
      t.equal(emotion.statusCode, 200)
      t.match(emotion.json(), { lang_code: 'en' })
    }
    for (const text of [
      'The delivery arrived two days late',
      'I can not wait to see you all at the concert tonight!',
      '@user so proud of you bro 🔥🔥 #congrats'
    ]) {
      const g = (await post(app, '/v4/language_detection', { text })).json() as Guess
      t.equal(g.lang_code, 'en', text)
    }
  }
)

t.test('the Latin-letter refiner: which texts it reads, and what its answer changes', async t => {
  const { asksLatin, latinRefined, LATIN, LATIN_MIN, ROMANISED_MIN, routeLanguage } =
    await import('../../../lib/text/langid/langid.js')
  const en = {
    code: 'en',
    name: 'English',
    prob: 0.7,
    alternatives: [
      { code: 'en', prob: 0.7 },
      { code: 'it', prob: 0.2 }
    ]
  }
  t.ok(asksLatin('kya hua yaar, kuch bolo na', en), 'answered English, Latin letters')
  t.ok(asksLatin('kya hua yaar, kuch bolo na', { ...en, code: 'it', prob: 0.3 }), 'no language surely')
  t.ok(asksLatin('Stom.', { ...en, code: 'it', prob: 0.9 }), 'under MIN_LETTERS letters, however sure')
  t.notOk(asksLatin('kya hua yaar, kuch bolo na', { ...en, prob: 0.99 }), 'sure English: not asked')
  t.notOk(
    asksLatin('el servicio fue horrible, nadie me ayudó', { ...en, code: 'es', prob: 0.99 }),
    'a sure other language'
  )
  const devanagari = 'क्या हुआ यार, कुछ बोलो ना'
  t.notOk(asksLatin(devanagari, { ...en, code: 'en' }), 'no Latin letters')
  const p = (code: string, prob: number) => LATIN.map(c => (c === code ? prob : (1 - prob) / (LATIN.length - 1)))
  const text = 'kya hua yaar, kuch bolo na'
  t.equal(latinRefined(text, en, p('hi', ROMANISED_MIN - 0.01)), en, 'hi below ROMANISED_MIN: the answer stands')
  t.equal(latinRefined('kya hua', en, p('hi', 0.95)), en, 'hi under ROMANISED_MIN_WORDS words: the answer stands')
  t.equal(latinRefined('Leuk samengevat.', en, p('nl', LATIN_MIN - 0.01)), en, 'nl below LATIN_MIN: the answer stands')
  t.equal(latinRefined('Leuk samengevat.', en, p('other', 0.9)), en, 'other: the answer stands')
  t.equal(latinRefined('Leuk samengevat.', { ...en, prob: 0.3 }, p('en', 0.9)).prob, 0.3, 'en: the answer stands')
  const hi = latinRefined(text, en, p('hi', 0.9))
  t.match(hi, { code: 'hi', name: 'Hindi', prob: 0.9 })
  t.same(
    hi.alternatives.map(a => a.code),
    ['hi', 'en', 'it']
  )
  t.ok(Math.abs((hi.alternatives[1]?.prob ?? 0) - 0.07) < 1e-9, 'the others share the rest')
  t.same(routeLanguage(text, hi, ['en', 'hi']), { code: 'hi', sure: true }, 'an operation serving Hindi')
  t.same(
    routeLanguage(text, hi, ['en', 'es']),
    routeLanguage(text, en, ['en', 'es']),
    'one without: as lid.176 answered'
  )
  const nl = latinRefined('Stom.', { ...en, prob: 0.45 }, p('nl', 0.8))
  t.match(nl, { code: 'nl', name: 'Dutch', prob: 0.8 })
  t.same(
    routeLanguage('Stom.', nl, ['en', 'nl']),
    { code: 'nl', sure: true },
    'a short text the refiner read goes by its answer'
  )
  t.same(
    routeLanguage('Stom.', nl, ['en']),
    { code: 'en', sure: false },
    'an operation without Dutch: too short, English as before'
  )
})

t.test(
  'detectFor: the Latin-letter refiner runs only for an operation that serves one of its languages but English, and ' +
    'routes as before',
  { skip: hasRealModel('language_detection') ? false : 'model not trained' },
  async t => {
    const { join } = await import('node:path')
    const { getTf } = await import('../../../lib/runtime/tf.js')
    const { scanStore } = await import('../../../lib/serving/registry.js')
    const { detectFor, loadLanguageId, routeLanguage } = await import('../../../lib/text/langid/langid.js')
    const { tf } = await getTf()
    const info = (await scanStore(join(import.meta.dirname, '..', '..', '..', 'model-store'))).find(
      m => m.name === 'language_detection'
    )!
    const id = await loadLanguageId(info.dir, info.manifest, tf, { imageMaxPixels: 0 })
    t.teardown(() => id.dispose())
    const texts = [
      'mujhe yeh phone bilkul pasand nahi aaya, paise barbaad ho gaye',
      'Angela Merkel met Emmanuel Macron in Paris on Tuesday.',
      'Het was heel slecht en ik ben er niet blij mee'
    ]
    const all = await id.predict(texts)
    t.equal(all[0]!.code, 'hi', 'predict asks the refiner')
    for (const served of [['en', 'hi', 'es'], ['en', 'es', 'nl'], ['en'], ['en', 'ja']]) {
      const found = await detectFor(id, texts, served)
      if (served.every(c => c === 'en' || c === 'ja')) {
        t.ok(
          found.every(d => d.unrefined === undefined && d.code !== 'hi'),
          `${served.join(',')}: lid.176's own answers`
        )
      }
      texts.forEach((text, i) =>
        t.same(
          routeLanguage(text, found[i]!, served),
          routeLanguage(text, all[i]!, served),
          `${served.join(',')}: ${text} routes as with the refiner`
        )
      )
    }
  }
)
