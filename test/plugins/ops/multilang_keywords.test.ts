import t from 'tap'
import { buildWithRealModels, hasRealModel, KEY } from '../../helper.js'

type Reply = { keywords: Array<{ keyword: string; confidence_score: number }>; lang_code: string; lang_source: string }
const FR =
  'La ville de Lyon investit dans les transports en commun. Les transports en commun doivent devenir plus propres. ' +
    'Des bus électriques remplacent les anciens bus dans les transports en commun.'

const TITLE =
  "multilang_keywords: fr, it, pt by the encoder's keyphrases; lang_code detected when omitted; " + 'errors as JSON'
const SKIP = hasRealModel('keywords') ? false : 'model-store/keywords not trained'
t.test(TITLE, { skip: SKIP }, async t => {
  const app = await buildWithRealModels(t, ['keywords', 'keywords-multilingual', 'text-encoder', 'language_detection'])
  const post = (payload: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/v4/multilang_keywords', payload: { api_key: KEY, ...payload } })
  const given = await post({ text: FR, lang_code: 'fr' })
  t.equal(given.statusCode, 200)
  const g = given.json() as Reply
  t.ok(
    g.keywords.slice(0, 3).some(k => k.keyword.toLowerCase() === 'transports'),
    g.keywords.map(k => k.keyword).join(', ')
  )
  t.ok(g.keywords.every(k => k.confidence_score > 0 && k.confidence_score <= 1))
  t.match(g, { lang_code: 'fr', lang_source: 'given' })
  const auto = (await post({ text: FR })).json() as Reply
  t.match(auto, { lang_code: 'fr', lang_source: 'detected' })
  t.same(auto.keywords, g.keywords)
  for (const [lang, text] of [
    ['it', 'Il comune di Milano investe nel trasporto pubblico. Il trasporto pubblico deve diventare più pulito.'],
    ['pt', 'A cidade de Lisboa investe em transporte público. O transporte público deve ficar mais limpo.']
  ] as Array<[string, string]>) {
    const r = await post({ text, lang_code: lang })
    t.equal(r.statusCode, 200, lang)
    t.ok((r.json() as Reply).keywords.length > 0, lang)
  }
  const ja = await post({ text: FR, lang_code: 'ja' })
  t.equal(ja.statusCode, 400)
  t.match(ja.json(), {
    code: 400,
    message: /"ja" is not supported by multilang_keywords; supported: en, es, nl, de, fr, it, pt/
  })
  const empty = await post({ text: '' })
  t.equal(empty.statusCode, 400)
  t.match(empty.json(), { code: 400, message: /text must be a non-empty string/ })
  const arr = await post({ text: ['a b', 'c d'] })
  t.equal(arr.statusCode, 400)
  t.match(arr.json(), { code: 400 })
  const batch = await app.inject({
    method: 'POST',
    url: '/v4/multilang_keywords_batch',
    payload: { api_key: KEY, text: [FR] }
  })
  t.equal(batch.statusCode, 404, 'no batch path, as in the ParallelDots API')
})
