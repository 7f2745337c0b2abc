import t from 'tap'
import { build, buildWithRealModels, FORM, form, hasRealModel, KEY } from '../../helper.js'

type Guess = { output: string; prob: number; lang_code: string }
const post = (app: Awaited<ReturnType<typeof build>>, url: string, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url, payload: { api_key: KEY, ...payload } })

t.test(
  'language_detection: English names, probabilities and codes; the batch under "batch", in input order',
  async t => {
    const app = await buildWithRealModels(t, ['language_detection'])
    const cases: Array<[string, string, string]> = [
      [
        'C est un environnement très hostile, si vous choisissez de débattre ici, vous serez vicieusement attaqué.',
        'French',
        'fr'
      ],
      ['Het was heel slecht en ik ben er niet blij mee', 'Dutch', 'nl'],
      ['El servicio fue horrible y nadie me ayudó', 'Spanish', 'es'],
      ['Ich bin mit der Lieferung sehr zufrieden', 'German', 'de'],
      ['The delivery arrived two days late', 'English', 'en'],
      // Bokmål and Danish: the da/no refiner decides between the two
      ['Jeg vet ikke hva som skjedde, men det er noe galt her', 'Norwegian', 'no'],
      ['Jeg ved ikke hvad der skete, men der er noget galt her', 'Danish', 'da']
    ]
    for (const [text, name, code] of cases) {
      const res = await app.inject({
        method: 'POST',
        url: '/v4/language_detection',
        headers: FORM,
        payload: form({ api_key: KEY, text })
      })
      t.equal(res.statusCode, 200)
      const g = res.json() as Guess
      t.same(Object.keys(g), ['output', 'prob', 'lang_code'])
      t.equal(g.output, name, text)
      t.equal(g.lang_code, code)
      t.ok(g.prob > 0.5 && g.prob <= 1, String(g.prob))
    }
    const res = await post(app, '/v4/language_detection_batch', { text: cases.map(c => c[0]) })
    t.equal(res.statusCode, 200)
    t.same(
      (res.json() as { batch: Guess[] }).batch.map(g => g.output),
      cases.map(c => c[1])
    )
    const short = (await post(app, '/v4/language_detection', { text: 'hoe gaat het' })).json() as Guess
    t.equal(short.lang_code, 'nl', 'a 3-word message')
    // a long text's language is read from its first DETECT_CHARS characters
    const { DETECT_CHARS } = await import('../../../lib/text/langid/langid.js')
    const english = 'The delivery arrived two days late and nobody answered my mails. '
      .repeat(40)
      .slice(0, DETECT_CHARS)
    const german = ' Ich bin mit der Lieferung sehr zufrieden und komme gerne wieder.'.repeat(100)
    const mixed = (await post(app, '/v4/language_detection', { text: english + german })).json() as Guess
    t.equal(mixed.lang_code, 'en', 'English for its first 2,000 characters, German after: English')
    t.equal(((await post(app, '/v4/language_detection', { text: german })).json() as Guess).lang_code, 'de')
  }
)

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
  t.notOk(asksLatin('क्या हुआ यार, कुछ बोलो ना', { ...en, code: 'en' }), 'no Latin letters')
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

t.test('language_detection: bad input answers JSON errors', async t => {
  const app = await buildWithRealModels(t, ['language_detection'])
  const empty = await post(app, '/v4/language_detection', { text: '' })
  t.equal(empty.statusCode, 400)
  t.match(empty.json(), { code: 400, message: /text must be a non-empty string/ })
  const arr = await post(app, '/v4/language_detection', { text: ['a', 'b'] })
  t.equal(arr.statusCode, 400)
  t.match(arr.json(), { code: 400, message: /language_detection_batch/ })
  const badItem = await post(app, '/v4/language_detection_batch', { text: ['fine', ' '] })
  t.equal(badItem.statusCode, 400)
  t.match(badItem.json(), { code: 400, message: /text\[1\]/ })
  const noKey = await app.inject({ method: 'POST', url: '/v4/language_detection', payload: { text: 'hello there' } })
  t.equal(noKey.statusCode, 401)
  const get = await app.inject({ method: 'GET', url: '/v4/language_detection' })
  t.equal(get.statusCode, 405)
})

t.test('without the detector installed, lang_code omitted means English', async t => {
  const app = await build(t)
  const res = await post(app, '/v4/sentiment', { text: 'El servicio fue horrible y nadie me ayudó' })
  t.equal(res.statusCode, 200)
  t.match(res.json(), { lang_code: 'en', lang_source: 'default' })
  t.equal(res.headers['content-language'], 'en')
  t.equal(res.headers['x-lang-source'], 'default')
  const missing = await post(app, '/v4/language_detection', { text: 'hello there' })
  t.equal(missing.statusCode, 503)
  const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
    paths: Record<string, { post?: { description?: string } }>
  }
  for (const p of ['/v4/language_detection', '/v4/language_detection_batch', '/v4/multilang_keywords']) {
    t.ok(doc.paths[p]?.post, `${p} documented`)
  }
  t.match(doc.paths['/v4/sentiment']?.post?.description, /Languages \(lang_code\): en\. Omitted or "auto"/)
})

const routed = [
  'language_detection',
  'sentiment',
  'sentiment-multilingual',
  'emotion',
  'emotion-multilingual',
  'sarcasm'
]
t.test(
  'lang_code omitted or auto routes by the detected language',
  { skip: routed.every(hasRealModel) ? false : 'multilingual models not trained' },
  async t => {
    const app = await buildWithRealModels(t, routed)
    const es = 'El servicio fue horrible, nadie me ayudó y perdí todo el día esperando'
    const auto = (await post(app, '/v4/sentiment', { text: es })).json() as Record<string, unknown>
    const given = (await post(app, '/v4/sentiment', { text: es, lang_code: 'es' })).json() as Record<string, unknown>
    const autoAuto = await post(app, '/v4/sentiment', { text: es, lang_code: 'AUTO' })
    t.match(auto, { lang_code: 'es', lang_source: 'detected' })
    t.match(given, { lang_code: 'es', lang_source: 'given' })
    t.same(auto.sentiment, given.sentiment)
    t.same((autoAuto.json() as Record<string, unknown>).sentiment, given.sentiment)
    t.equal(autoAuto.headers['content-language'], 'es')
    t.equal(autoAuto.headers['x-lang-source'], 'detected')
    // short or unclear texts stay English
    for (const text of ['ok', '😀😀', '12345', 'great', 'I love it', 'meh']) {
      const r = (await post(app, '/v4/sentiment', { text })).json() as Record<string, unknown>
      t.equal(r.lang_code, 'en', text)
    }
    // a batch of mixed languages: each text its own language, in order
    const mixed = await post(app, '/v4/emotion_batch', {
      text: ['ok', es, 'Ich habe solche Angst vor der Prüfung morgen früh', es]
    })
    const batch = mixed.json() as { emotion: unknown[]; lang_code: string[]; lang_source: string[] }
    t.equal(mixed.headers['content-language'], 'en, es, de', 'each language once, in order')
    t.equal(mixed.headers['x-lang-source'], 'default, detected')
    const spanish = (await post(app, '/v4/emotion', { text: es })).json() as { emotion: unknown }
    t.same(batch.emotion[3], spanish.emotion, 'a text of a mixed batch gets the answer it gets alone')
    t.same(batch.lang_code, ['en', 'es', 'de', 'es'])
    t.same(batch.lang_source, ['default', 'detected', 'detected', 'detected'])
    t.equal(batch.emotion.length, 4)
    // a detected language the operation does not serve: answered as English, and said so (SPEC section 8)
    const ja = await post(app, '/v4/sarcasm', { text: 'これは本当に素晴らしい一日でした、ありがとう' })
    t.equal(ja.statusCode, 200)
    t.equal(ja.headers['content-language'], 'en')
    t.equal(ja.headers['x-lang-source'], 'default')
    const jaTexts = ['これは本当に素晴らしい一日でした、ありがとう', 'What a great day, thanks']
    const jaBatch = await post(app, '/v4/sarcasm_batch', { text: jaTexts })
    t.equal(jaBatch.statusCode, 200, 'one such text never fails a batch')
    t.equal(jaBatch.headers['content-language'], 'en')
    const bad = await post(app, '/v4/sentiment', { text: es, lang_code: 'xx' })
    t.equal(bad.statusCode, 400)
    t.match(bad.json(), {
      message: /"xx" is not supported by sentiment; supported: en, ar, de, es, fr, hi, it, pt, nl/
    })
  }
)

const ownScores = "each language's answers are the model's own scores, given or detected, with their top label"
t.test(ownScores, { skip: routed.every(hasRealModel) ? false : 'multilingual models not trained' }, async t => {
  const { languageCalibrationOf, recalibrateLanguage } = await import('../../../lib/text/calibration.js')
  const app = await buildWithRealModels(t, routed, { env: { TEXT_WORKERS: '0' } })
  for (const [op, folder, labels] of [
    ['sentiment', 'sentiment-multilingual', ['negative', 'neutral', 'positive']],
    ['emotion', 'emotion-multilingual', ['Fear', 'Happy', 'Angry', 'Sad', 'Excited', 'Bored']]
  ] as const) {
    const model = app.models.get(folder)!
    const params = languageCalibrationOf(model.manifest)
    // sentiment's head has one temperature in head.json and its own for the languages whose fitted
    // one differs by 1.5x or more (training/calibration/language.ts); emotion's is in its weights
    const own = folder === 'sentiment-multilingual' ? ['hi', 'nl'] : []
    t.same(Object.keys(params?.temperature ?? {}).sort(), own, `${folder}: the languages calibrated on their own`)
    for (const [lang, text] of [
      ['es', 'El servicio fue horrible, nadie me ayudó y perdí todo el día esperando'],
      ['de', 'Ich habe solche Angst vor der Prüfung morgen früh'],
      ['hi', 'yeh phone bahut accha hai yaar, mujhe pasand aaya']
    ] as const) {
      if (!model.manifest.languages.includes(lang)) continue
      const row = (await model.predict([text]))[0] as number[]
      const inOrder = (r: number[]) => labels.map(l => r[model.manifest.labels.indexOf(l)]!)
      const raw = inOrder(row)
      const want = inOrder(recalibrateLanguage([row], lang, params)[0]!)
      const res = (await post(app, `/v4/${op}`, { text, lang_code: lang })).json() as Record<
        string,
        Record<string, number>
      >
      const got = labels.map(l => res[op]![l]!)
      t.same(
        got,
        want,
        `${op} ${lang}: the model's scores with the ${lang} temperature (${params?.temperature[lang] ?? 'none'})`
      )
      t.equal(got.indexOf(Math.max(...got)), raw.indexOf(Math.max(...raw)), `${op} ${lang}: the same top label`)
      if (!own.includes(lang)) t.same(got, raw, `${op} ${lang}: the scores as the weights give them`)
      else t.notSame(got, raw, `${op} ${lang}: not the scores as the weights give them`)
    }
  }
  // detected: the Spanish text without lang_code answers as with lang_code es
  const es = 'El servicio fue horrible, nadie me ayudó y perdí todo el día esperando'
  const auto = (await post(app, '/v4/sentiment', { text: es })).json() as Record<string, unknown>
  t.match(auto, { lang_code: 'es', lang_source: 'detected' })
  t.same(
    auto.sentiment,
    ((await post(app, '/v4/sentiment', { text: es, lang_code: 'es' })).json() as Record<string, unknown>).sentiment
  )
})

t.test(
  'detection in the text workers (one message with the prediction) answers as detection on the main thread',
  { skip: routed.every(hasRealModel) ? false : 'multilingual models not trained' },
  async t => {
    const inWorkers = await buildWithRealModels(t, routed, { env: { TEXT_WORKERS: '1' } })
    const onMain = await buildWithRealModels(t, routed, { env: { TEXT_WORKERS: '0' } })
    t.ok(inWorkers.models.detectingRunner(['emotion', 'emotion-multilingual']), 'the workers detect')
    const emotionModels = ['emotion', 'emotion-multilingual']
    t.notOk(onMain.models.detectingRunner(emotionModels), 'no workers: detection on the main thread')
    // multilingual sentiment is a head on the text encoder, on the main thread: sentiment detects there
    const sentimentModels = ['sentiment', 'sentiment-multilingual']
    t.notOk(inWorkers.models.detectingRunner(sentimentModels), 'sentiment detects on the main thread')
    const texts = [
      'great phone, love it',
      'ok',
      'El servicio fue horrible, nadie me ayudó',
      'Ich habe solche Angst vor der Prüfung',
      'これは本当に素晴らしい一日でした、ありがとう',
      'Jeg ved ikke hvad der skete, men der er noget galt her',
      'Это был ужасный день, всё пошло не так'
    ]
    const asked: Array<[string, Record<string, unknown>]> = []
    for (const op of ['sentiment', 'emotion', 'sarcasm']) {
      for (const text of texts) asked.push([op, { text }], [op, { text, lang_code: 'auto' }])
      // (over 32 texts the main thread detects, in either service)
      asked.push(
        [`${op}_batch`, { text: texts }],
        [`${op}_batch`, { text: texts.slice(0, 4) }],
        [`${op}_batch`, { text: [...texts, ...texts, ...texts, ...texts, ...texts].slice(0, 33) }]
      )
    }
    let refused = 0
    for (const [op, payload] of asked) {
      const [a, b] = await Promise.all([post(inWorkers, `/v4/${op}`, payload), post(onMain, `/v4/${op}`, payload)])
      const what = `${op} ${JSON.stringify(payload).slice(0, 60)}`
      t.equal(a.statusCode, b.statusCode, what)
      t.same(a.json(), b.json(), what)
      t.equal(a.headers['content-language'], b.headers['content-language'], what)
      t.equal(a.headers['x-lang-source'], b.headers['x-lang-source'], what)
      if (a.statusCode !== 200) refused++
    }
    t.equal(refused, 0, 'no text is refused for its detected language, in either service')
  }
)

t.test('a language is only answered for a text in its letters: short Latin-letter English is never Thai', async t => {
  const { writtenIn } = await import('../../../lib/text/langid/languages.js')
  t.notOk(writtenIn('th', 'great phone'))
  t.ok(writtenIn('th', 'สวัสดีครับ'))
  t.ok(writtenIn('hi', 'bahut accha'), 'Hindi in Latin letters')
  t.ok(writtenIn('ru', 'привет'))
  t.notOk(writtenIn('en', 'привет'))
  const app = await buildWithRealModels(t, ['language_detection'])
  // lid.176 alone calls "great phone" Thai (0.77)
  const res = await app.inject({
    method: 'POST',
    url: '/v4/language_detection_batch',
    payload: { api_key: KEY, text: ['great phone', 'สวัสดีครับ ยินดีที่ได้รู้จัก'] }
  })
  const body = res.json() as { batch: Array<{ output: string; lang_code: string }> }
  t.equal(body.batch[0]!.lang_code, 'en')
  t.equal(body.batch[1]!.lang_code, 'th')
})

t.test(
  'detectFor: the Latin-letter refiner runs only for an operation that serves one of its languages but English, and routes as before',
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
