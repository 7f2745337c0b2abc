// The official ParallelDots Node client (npm `paralleldots`), its calls redirected from
// apis.paralleldots.com to this service on a local port: its bodies must come back right.
import t from 'tap'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { build, buildWithRealModels, hasRealModel, KEY } from './helper.js'

type Req = ((opts: unknown, cb: unknown) => unknown) & { post: (opts: unknown, cb: unknown) => unknown }
type Client = Record<string, (...args: unknown[]) => Promise<string>> & { apiKey: string }

// the client's modules keep the request function they first required: it is wrapped once and
// sends to the latest base (each test listens on a port of its own)
let target = ''
function loadClient (base: string): Client {
  target = base
  const require = createRequire(import.meta.url)
  const clientPath = require.resolve('paralleldots')
  const requestPath = require.resolve('request', { paths: [join(clientPath, '..')] })
  const real = require(requestPath) as Req & { redirected?: true }
  const cached = require.cache[requestPath]!
  if (real.redirected !== true) {
    const redirect = (opts: unknown) => {
      const o = opts as { url?: string }
      return typeof o?.url === 'string'
        ? { ...o, url: o.url.replace(/^https?:\/\/apis\.paralleldots\.com/, target) }
        : opts
    }
    cached.exports = Object.assign((opts: unknown, cb: unknown) => real(redirect(opts), cb), real, {
      post: (opts: unknown, cb: unknown) => real.post(redirect(opts), cb),
      redirected: true
    })
  }
  const client = require('paralleldots') as Client
  client.apiKey = KEY
  return client
}

const sum = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0)
const close = (x: number, y: number) => Math.abs(x - y) < 1e-4

t.test('the official Node client gets correct bodies back', async t => {
  const app = await build(t)
  await app.listen({ host: '127.0.0.1', port: 0 })
  const { port } = app.server.address() as { port: number }
  const pd = loadClient(`http://127.0.0.1:${port}`)
  const parse = async (p: Promise<string>) => JSON.parse(await p) as Record<string, any>

  const s = await parse(pd.sentiment!('I really love this new phone'))
  t.same(Object.keys(s.sentiment), ['negative', 'neutral', 'positive'])
  t.ok(close(sum(s.sentiment), 1))

  // the client sends batches as text[0]=..&text[1]=..
  const texts = ['first text here', 'second one', 'and a third']
  const sb = await parse(pd.sentimentBatch!(texts))
  t.equal(sb.sentiment.length, 3)
  for (const [i, text] of texts.entries()) {
    const one = await parse(pd.sentiment!(text))
    t.ok(close(sb.sentiment[i].positive, one.sentiment.positive), `batch item ${i} in order`)
  }

  const e = await parse(pd.emotion!('what a wonderful day'))
  t.same(Object.keys(e.emotion), ['Fear', 'Happy', 'Angry', 'Sad', 'Excited', 'Bored'])
  t.equal((await parse(pd.emotionBatch!(['a b', 'c d']))).emotion.length, 2)

  const sc = await parse(pd.sarcasm!('oh great, another Monday'))
  t.ok(close(sc.Sarcastic + sc['Non-Sarcastic'], 1))
  const scb = await parse(pd.sarcasmBatch!(['a b', 'c d']))
  t.ok(Array.isArray(scb) && scb.length === 2, 'sarcasm batch is a bare array')

  const i = await parse(pd.intent!('Where is the nearest station?'))
  t.same(Object.keys(i.intent), ['news', 'query', 'spam', 'marketing', 'feedback'])
  const ib = await parse(pd.intentBatch!(['a b', 'c d']))
  t.same(Object.keys(ib.intent[1]), ['intent'])

  const n = await parse(pd.ner!('Barack Obama visited Paris', 'en'))
  for (const ent of n.entities) t.equal('Barack Obama visited Paris'.slice(ent.start, ent.end), ent.name)
  t.equal((await parse(pd.nerBatch!(['Anna went home', 'x y']))).entities.length, 2)

  const k = await parse(pd.keywords!('Machine learning models need careful evaluation'))
  t.ok(Array.isArray(k.keywords))
  t.equal((await parse(pd.keywordsBatch!(['a b', 'c d']))).keywords.length, 2)

  const tx = await parse(pd.taxonomy!('The election results surprised the markets'))
  t.equal(tx.taxonomy.length, 3)
  t.equal((await parse(pd.taxonomyBatch!(['a b', 'c d']))).taxonomy.length, 2)

  const sim = await parse(pd.semantic!('the cat sat down', 'a cat sat down'))
  t.ok(sim.similarity_score >= 0 && sim.similarity_score <= 1)
  t.ok(close(sim.normalized_score, 5 * sim.similarity_score))

  const u = await parse(pd.usage!())
  t.match(u, { key: { name: 'API_KEYS' }, text: { daily: { used: Number } } })
  t.ok(u.text.daily.used >= 20)

  // an image upload the client's way (multipart, filename from the path, no part type): accepted
  // as an image by its bytes; the fixture store has no image model, so 503 naming it
  const require = createRequire(import.meta.url)
  const jpg = join(require.resolve('paralleldots'), '..', 'image-file.jpg')
  const img = await parse(pd.facialEmotion!(jpg, 'local'))
  t.match(img, { code: 503, message: /facial_emotion/ })
  const obj = await parse(pd.objectRecognizer!(jpg, 'local'))
  t.match(obj, { code: 503, message: /object_recognizer/ })

  pd.apiKey = 'wrong'
  const denied = await parse(pd.sentiment!('hello there'))
  t.match(denied, { code: 401, error: 'Unauthorized' })
})

const WAVE2 = ['abuse', 'target_sentiment', 'custom_classifier', 'word-vectors', 'phrase_extractor', 'nsfw']
t.test(
  'the official Node client: abuse, target sentiment, custom classifier, phrase extractor, nsfw',
  { skip: WAVE2.every(hasRealModel) ? false : 'a model of these operations is missing' },
  async t => {
    const ops = WAVE2
    const app = await buildWithRealModels(t, ops)
    await app.listen({ host: '127.0.0.1', port: 0 })
    const { port } = app.server.address() as { port: number }
    const pd = loadClient(`http://127.0.0.1:${port}`)
    const parse = async (p: Promise<string>) => JSON.parse(await p) as Record<string, any>

    const a = await parse(pd.abuse!("I was not very impressed with the band's performance this year"))
    t.match(a, { sentence_type: /^(Abusive|Non Abusive)$/, confidence_score: Number })
    t.equal((await parse(pd.abuseBatch!(['you are an idiot', 'nice weather today']))).abuse.length, 2)

    const ts = await parse(pd.target_sentiment!('The pizza was great but the staff were rude.', 'pizza'))
    t.same(Object.keys(ts.sentiment), ['negative', 'neutral', 'positive'])
    t.same(ts.offsets, [{ start: 4, end: 9 }])

    // the client's own example: twelve labels, one of them twice
    const category = [
      'finance',
      'markets',
      'economy',
      'shares',
      'world politics',
      'diplomacy',
      'UN',
      'war',
      'india',
      'congress',
      'india',
      'bjp'
    ]
    const cc = await parse(
      pd.customClassifier!('The central bank raised interest rates and shares fell on the stock market.', category)
    )
    t.equal(cc.taxonomy.length, 11)
    t.same(Object.keys(cc.taxonomy[0]), ['category', 'confidence_score'])
    t.ok(['finance', 'markets', 'economy', 'shares'].includes(cc.taxonomy[0].category), cc.taxonomy[0].category)

    const pe = await parse(
      pd.phraseExtractor!(
        'For the Yankees, it took a stunning comeback after being down 2-0 to the Indians in the American League ' +
          'Division Series.'
      )
    )
    t.ok(pe.keywords.some((k: { keyword: string }) => k.keyword === 'stunning comeback'))
    t.ok(pe.keywords.every((k: { relevance_score: number }) => Number.isInteger(k.relevance_score)))
    t.equal((await parse(pd.phraseExtractorBatch!(['the red car', 'a blue boat']))).keywords.length, 2)

    const require = createRequire(import.meta.url)
    const jpg = join(require.resolve('paralleldots'), '..', 'image-file.jpg')
    const nsfw = await parse(pd.nsfw!(jpg, 'local'))
    t.match(nsfw, { output: /safe to open at work$/, prob: Number })
  }
)

const multilingual = { skip: hasRealModel('sentiment-multilingual') ? false : 'sentiment-multilingual missing' }
const absent = 'the official Node client: multilingualSentiment answers as sentiment; textParser, popularity 501'
t.test(absent, multilingual, async t => {
  const app = await buildWithRealModels(t, ['sentiment', 'sentiment-multilingual'])
  await app.listen({ host: '127.0.0.1', port: 0 })
  const { port } = app.server.address() as { port: number }
  const pd = loadClient(`http://127.0.0.1:${port}`)
  const parse = async (p: Promise<string>) => JSON.parse(await p) as Record<string, any>

  const text = 'El servicio fue terrible y la comida llegó fría.'
  const ml = await parse(pd.multilingualSentiment!(text, 'es'))
  t.same(Object.keys(ml.sentiment), ['negative', 'neutral', 'positive'])
  const payload = { api_key: KEY, text, lang_code: 'es' }
  const direct = await app.inject({ method: 'POST', url: '/v4/sentiment', payload })
  t.same(ml.sentiment, direct.json().sentiment, 'the answer of /v4/sentiment with lang_code=es')
  t.same({ lang_code: ml.lang_code, lang_source: ml.lang_source }, { lang_code: 'es', lang_source: 'given' })
  const cn = await parse(pd.multilingualSentiment!('这个很好', 'cn'))
  const cnRefused = { code: 400, message: /lang_code "cn" is not supported by multilang/ }
  t.match(cn, cnRefused, 'a language the client allows but this server does not serve')

  const parser = await parse(pd.textParser!('The cat sat on the mat.'))
  const why = 'it has no dependency parser (none is trained or shipped here)'
  const message = `This server does not offer text_parser: ${why}. See docs/api.md.`
  t.same(parser, { code: 501, error: 'Not Implemented', message })
  const require = createRequire(import.meta.url)
  const jpg = join(require.resolve('paralleldots'), '..', 'image-file.jpg')
  t.match(await parse(pd.popularity!(jpg, 'local')), { code: 501, message: /does not offer popularity/ })
  const byUrl = await parse(pd.popularity!('https://example.com/a.jpg', 'url'))
  t.match(byUrl, { code: 501 }, 'by url (the client calls /v3)')
  const usage = await app.inject({ method: 'POST', url: '/usage', payload: { api_key: KEY } })
  t.equal(usage.json().text.daily.used, 2, 'only the two sentiment answers were charged')
})
