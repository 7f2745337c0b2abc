// lang_code omitted or auto: texts routed by their detected language (one text and mixed batches), each
// language's answers the model's own scores, and detection in the text workers as on the main thread.
import t from 'tap'
import { buildWithRealModels, hasRealModel } from '../../helper.js'
import { post } from './language-detection-fixture.js'

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
    const japanese = 'これは本当に素晴らしい一日でした、ありがとう'
    const ja = await post(app, '/v4/sarcasm', { text: japanese })
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
    // one temperature in the head's weights; on top of it, a language whose own fitted one differs by 1.5x
    // or more keeps it, and the others share one fitted on their rows together (training/calibration/language.ts)
    const temps = params?.temperature ?? {}
    const own = folder === 'sentiment-multilingual' ? ['hi', 'nl'] : []
    t.same(Object.keys(temps).sort(), [...model.manifest.languages].sort(), `${folder}: every language has one`)
    const shared = new Set(Object.entries(temps).filter(([l]) => !own.includes(l)).map(([, T]) => T))
    t.equal(shared.size, 1, `${folder}: the languages not calibrated on their own share one temperature`)
    for (const l of own) t.notOk(shared.has(temps[l]!), `${folder} ${l}: its own temperature`)
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
      t.notSame(got, raw, `${op} ${lang}: not the scores as the weights give them`)
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
    t.ok(inWorkers.models.routesInWorkers(['sarcasm']), 'the workers route sarcasm')
    t.ok(inWorkers.models.textPool?.detects, 'the workers detect')
    t.notOk(onMain.models.routesInWorkers(['sarcasm']), 'no workers: routing on the main thread')
    // multilingual sentiment and emotion are heads on the text encoder, on the main thread: they route there
    for (const models of [
      ['sentiment', 'sentiment-multilingual'],
      ['emotion', 'emotion-multilingual']
    ]) {
      t.notOk(inWorkers.models.routesInWorkers(models), `${models[0]} routes on the main thread`)
    }
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
