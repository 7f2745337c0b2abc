// language_detection: English names, probabilities and codes, one text and batches; bad input; the service
// without the detector installed (lang_code omitted means English); a language only for a text in its letters.
import t from 'tap'
import { build, buildWithRealModels, FORM, form, KEY } from '../../helper.js'
import { post, type Guess } from './language-detection-fixture.js'

// a Thai greeting and 'nice to meet you'
const THAI = 'สวัสดีครับ ยินดีที่ได้รู้จัก'

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
    payload: { api_key: KEY, text: ['great phone', THAI] }
  })
  const body = res.json() as { batch: Array<{ output: string; lang_code: string }> }
  t.equal(body.batch[0]!.lang_code, 'en')
  t.equal(body.batch[1]!.lang_code, 'th')
})
