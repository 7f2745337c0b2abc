import t from 'tap'
import { build, buildWithRealModels, FORM, form, hasRealModel, KEY } from '../../helper.js'

t.test('keywords: objects with keyword and confidence_score; batch order', async t => {
  const app = await build(t)
  const one = (
    await app.inject({
      method: 'POST',
      url: '/v4/keywords',
      headers: FORM,
      payload: form({ api_key: KEY, text: 'keyphrase extraction with graphs' })
    })
  ).json() as { keywords: Array<{ keyword: string; confidence_score: number }> }
  t.ok(one.keywords.length > 0 && one.keywords.length <= 10)
  for (const k of one.keywords) {
    t.ok(typeof k.keyword === 'string' && k.confidence_score >= 0 && k.confidence_score <= 1)
  }
  const batch = (
    await app.inject({
      method: 'POST',
      url: '/v4/keywords_batch',
      payload: { api_key: KEY, text: ['a b', 'keyphrase extraction with graphs'] }
    })
  ).json() as { keywords: unknown[][] }
  t.same(batch.keywords[1], one.keywords)
})

const ABSTRACT =
  'Neural networks for image classification. We train deep neural networks on large image collections and compare ' +
  'them with support vector machines. Image classification accuracy improves as the neural networks grow deeper.'

t.test(
  'the trained keyphrase ranker behind /v4/keywords',
  { skip: hasRealModel('keywords') ? false : 'model-store/keywords not trained yet' },
  async t => {
    const app = await buildWithRealModels(t, ['keywords', 'keywords-multilingual', 'text-encoder'])
    type Reply = { keywords: Array<{ keyword: string; confidence_score: number }> }
    const one = async (text: string, extra: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url: '/v4/keywords',
        headers: FORM,
        payload: form({ api_key: KEY, text, ...extra })
      })

    t.test('at most 10, best first, scores in [0, 1], no duplicates; the obvious phrases of an abstract', async t => {
      const res = await one(ABSTRACT)
      t.equal(res.statusCode, 200)
      const { keywords } = res.json() as Reply
      t.ok(keywords.length > 0 && keywords.length <= 10)
      for (const [i, k] of keywords.entries()) {
        t.ok(k.confidence_score >= 0 && k.confidence_score <= 1)
        if (i > 0) t.ok(k.confidence_score <= keywords[i - 1]!.confidence_score, 'best first')
      }
      const words = keywords.map(k => k.keyword.toLowerCase())
      t.equal(new Set(words).size, words.length)
      t.ok(words.slice(0, 3).includes('neural networks'), words.join(', '))
      t.ok(words.slice(0, 3).includes('image classification'), words.join(', '))
    })

    t.test('nothing to rank answers an empty list; an empty text is refused before the model', async t => {
      for (const text of ['ok', '...', 'a b']) {
        const res = await one(text)
        t.equal(res.statusCode, 200, JSON.stringify(text))
        t.same((res.json() as Reply).keywords, [])
      }
      const empty = await one('')
      t.equal(empty.statusCode, 400)
      t.match(empty.json(), { code: 400, message: /text must be a non-empty string/ })
    })

    t.test('batch results are the single results, in input order', async t => {
      const texts = [
        'Fuzzy logic controllers for robot arms.',
        'ok',
        ABSTRACT,
        'Wireless sensor networks need energy-efficient routing protocols.'
      ]
      const batch = (
        await app.inject({ method: 'POST', url: '/v4/keywords_batch', payload: { api_key: KEY, text: texts } })
      ).json() as { keywords: Reply['keywords'][] }
      t.equal(batch.keywords.length, texts.length)
      for (const [i, text] of texts.entries()) {
        t.same(batch.keywords[i], ((await one(text)).json() as Reply).keywords, `text ${i}`)
      }
    })

    const title =
      "es, nl and de get the encoder's keyphrases; other lang_code values answer 400 JSON; " + 'en and omitted agree'
    t.test(title, async t => {
      const texts: Record<string, [string, string]> = {
        de: [
          'Die Bundesregierung plant neue Regeln für erneuerbare Energien. Erneuerbare Energien sollen bis 2030 die ' +
            'Hälfte des Strombedarfs decken. Kritiker halten die Regeln für erneuerbare Energien für zu schwach.',
          'erneuerbare energien'
        ],
        es: [
          'El cambio climático amenaza la producción de alimentos. Los expertos advierten que el cambio climático ' +
            'reducirá las cosechas de trigo. La producción de alimentos debe adaptarse al cambio climático.',
          'cambio climático'
        ],
        nl: [
          'De gemeente Amsterdam investeert in openbaar vervoer. Het openbaar vervoer moet schoner worden. ' +
            'Elektrische bussen vervangen de oude bussen in het openbaar vervoer.',
          'openbaar vervoer'
        ]
      }
      for (const [lang, [text, expected]] of Object.entries(texts)) {
        const res = await one(text, { lang_code: lang })
        t.equal(res.statusCode, 200, lang)
        const { keywords } = res.json() as Reply
        t.ok(keywords.length > 0 && keywords.length <= 10, lang)
        const words = keywords.map(k => k.keyword.toLowerCase())
        t.ok(words.slice(0, 3).includes(expected), `${lang}: ${words.join(', ')}`)
        const batch = (
          await app.inject({
            method: 'POST',
            url: '/v4/keywords_batch',
            payload: { api_key: KEY, lang_code: lang, text: ['...', text] }
          })
        ).json() as { keywords: Reply['keywords'][] }
        t.same(batch.keywords, [[], keywords], `${lang}: batch results are the single results, in order`)
      }
      for (const lang of ['ja', 'xx']) {
        const res = await one(ABSTRACT, { lang_code: lang })
        t.equal(res.statusCode, 400, lang)
        t.match(res.headers['content-type'], /application\/json/)
        t.match(res.json(), {
          code: 400,
          message: new RegExp(`"${lang}" is not supported by keywords; supported: en, es, nl, de, fr, it, pt`)
        })
      }
      t.same(
        ((await one(ABSTRACT, { lang_code: 'en' })).json() as Reply).keywords,
        ((await one(ABSTRACT)).json() as Reply).keywords
      )
    })

    t.test(
      'a 100,000-character text is answered without hanging (the ranker reads its first 20,000 characters)',
      async t => {
        const long = (ABSTRACT + ' ').repeat(500).slice(0, 100_000)
        t.equal(long.length, 100_000)
        const t0 = performance.now()
        const res = await one(long)
        // a guard against a hang or a quadratic path, not a speed target (the load test prints those)
        t.ok(performance.now() - t0 < 60_000, `${Math.round(performance.now() - t0)} ms`)
        t.equal(res.statusCode, 200)
        const { keywords } = res.json() as Reply
        t.ok(keywords.length > 0 && keywords.length <= 10)
      }
    )
  }
)
