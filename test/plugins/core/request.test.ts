// SPEC §2: every encoding reaches the same validated shape, for every text operation.
import t from 'tap'
import type { InjectOptions } from 'fastify'
import { build, form, FORM, KEY, multipart } from '../../helper.js'

const OPS = ['sentiment', 'ner', 'taxonomy', 'keywords', 'emotion', 'sarcasm', 'intent', 'new/intent']
const TEXT = 'Paris is lovely in the spring, said Marie Curie.'
const TEXTS = ['I love this phone, it is great', 'Angela Merkel visited Madrid today', 'What time is it?']

t.test('single text: urlencoded, multipart, query string and JSON give the same answer', async t => {
  const app = await build(t)
  for (const op of OPS) {
    const url = `/v4/${op}`
    const urlenc = await app.inject({ method: 'POST', url, headers: FORM, payload: form({ api_key: KEY, text: TEXT }) })
    t.equal(urlenc.statusCode, 200, `${op} urlencoded: ${urlenc.body}`)
    const mp = multipart([
      { name: 'api_key', value: KEY },
      { name: 'text', value: TEXT }
    ])
    const multi = await app.inject({ method: 'POST', url, ...mp })
    const query = await app.inject({ method: 'POST', url: `${url}?${form({ api_key: KEY, text: TEXT })}` })
    const json = await app.inject({ method: 'POST', url, payload: { api_key: KEY, text: TEXT } })
    for (const [name, res] of [
      ['multipart', multi],
      ['query', query],
      ['json', json]
    ] as const) {
      t.equal(res.statusCode, 200, `${op} ${name}`)
      t.same(res.json(), urlenc.json(), `${op} ${name} same body as urlencoded`)
    }
  }
})

t.test('the body wins over the query string', async t => {
  const app = await build(t)
  const both = await app.inject({
    method: 'POST',
    url: `/v4/sentiment?${form({ api_key: 'wrong', text: 'from the query' })}`,
    headers: FORM,
    payload: form({ api_key: KEY, text: TEXT })
  })
  const body = await app.inject({
    method: 'POST',
    url: '/v4/sentiment',
    headers: FORM,
    payload: form({ api_key: KEY, text: TEXT })
  })
  t.equal(both.statusCode, 200)
  t.same(both.json(), body.json())
})

t.test('batch: every encoding gives the same answer, in input order', async t => {
  const app = await build(t)
  for (const op of OPS) {
    const url = `/v4/${op}_batch`
    const ref = await app.inject({ method: 'POST', url, payload: { api_key: KEY, text: TEXTS } })
    t.equal(ref.statusCode, 200, `${op} json array: ${ref.body}`)
    const variants: Record<string, () => Promise<{ statusCode: number; json(): unknown; body: string }>> = {
      'compact JSON string': () =>
        app.inject({
          method: 'POST',
          url,
          headers: FORM,
          payload: form({ api_key: KEY, text: JSON.stringify(TEXTS) })
        }),
      '", " JSON string': () =>
        app.inject({
          method: 'POST',
          url,
          headers: FORM,
          payload: form({ api_key: KEY, text: '[' + TEXTS.map(x => JSON.stringify(x)).join(', ') + ']' })
        }),
      'pretty JSON string': () =>
        app.inject({
          method: 'POST',
          url,
          headers: FORM,
          payload: form({ api_key: KEY, text: JSON.stringify(TEXTS, null, 2) })
        }),
      'indexed text[0]': () =>
        app.inject({
          method: 'POST',
          url,
          headers: FORM,
          payload:
            `api_key=${KEY}&text%5B1%5D=${encodeURIComponent(TEXTS[1]!)}` +
            `&text%5B0%5D=${encodeURIComponent(TEXTS[0]!)}&text%5B2%5D=${encodeURIComponent(TEXTS[2]!)}`
        }),
      'text[] fields': () =>
        app.inject({ method: 'POST', url, headers: FORM, payload: form({ api_key: KEY, 'text[]': TEXTS }) }),
      'repeated fields': () =>
        app.inject({ method: 'POST', url, headers: FORM, payload: form({ api_key: KEY, text: TEXTS }) }),
      'multipart repeated': () =>
        app.inject({
          method: 'POST',
          url,
          ...multipart([{ name: 'api_key', value: KEY }, ...TEXTS.map(x => ({ name: 'text', value: x }))])
        }),
      'multipart JSON string': () =>
        app.inject({
          method: 'POST',
          url,
          ...multipart([
            { name: 'api_key', value: KEY },
            { name: 'text', value: JSON.stringify(TEXTS) }
          ])
        }),
      'query string JSON': () =>
        app.inject({ method: 'POST', url: `${url}?${form({ api_key: KEY, text: JSON.stringify(TEXTS) })}` })
    }
    for (const [name, send] of Object.entries(variants)) {
      const res = await send()
      t.equal(res.statusCode, 200, `${op} ${name}: ${res.body}`)
      t.same(res.json(), ref.json(), `${op} ${name}`)
    }
  }
})

t.test('a batch result equals the single results, in order', async t => {
  const app = await build(t)
  const batch = (
    await app.inject({ method: 'POST', url: '/v4/sentiment_batch', payload: { api_key: KEY, text: TEXTS } })
  ).json() as { sentiment: unknown[] }
  for (const [i, text] of TEXTS.entries()) {
    const one = (
      await app.inject({ method: 'POST', url: '/v4/sentiment', payload: { api_key: KEY, text } })
    ).json() as { sentiment: Record<string, number> }
    const b = batch.sentiment[i] as Record<string, number>
    for (const k of Object.keys(one.sentiment)) t.ok(Math.abs(one.sentiment[k]! - b[k]!) < 1e-5, `text ${i} ${k}`)
  }
})

t.test('a plain string on a batch path is a batch of one', async t => {
  const app = await build(t)
  const res = await app.inject({
    method: 'POST',
    url: '/v4/emotion_batch',
    headers: FORM,
    payload: form({ api_key: KEY, text: 'just one' })
  })
  t.equal(res.statusCode, 200)
  t.equal((res.json() as { emotion: unknown[] }).emotion.length, 1)
})

t.test('similarity in every encoding', async t => {
  const app = await build(t)
  const fields = { api_key: KEY, text_1: 'the cat sat on the mat', text_2: 'a cat sat on a mat' }
  const ref = await app.inject({ method: 'POST', url: '/v4/similarity', headers: FORM, payload: form(fields) })
  t.equal(ref.statusCode, 200, ref.body)
  const body = ref.json() as { similarity_score: number; actual_score: number; normalized_score: number }
  t.ok(body.similarity_score > 0 && body.similarity_score <= 1)
  t.equal(body.actual_score, body.similarity_score)
  t.ok(Math.abs(body.normalized_score - 5 * body.similarity_score) < 1e-9)
  const others = [
    await app.inject({ method: 'POST', url: '/v4/similarity', payload: fields }),
    await app.inject({ method: 'POST', url: `/v4/similarity?${form(fields)}` }),
    await app.inject({
      method: 'POST',
      url: '/v4/similarity',
      ...multipart(Object.entries(fields).map(([name, value]) => ({ name, value })))
    })
  ]
  for (const r of others) t.same(r.json(), ref.json())
})

t.test('every response carries X-Request-Id; a sane incoming one is echoed', async t => {
  const app = await build(t)
  const a = await app.inject({ method: 'POST', url: '/v4/sentiment', payload: { api_key: KEY, text: TEXT } })
  t.match(a.headers['x-request-id'], /^[\w-]{10,}$/)
  const b = await app.inject({ method: 'GET', url: '/nowhere', headers: { 'x-request-id': 'abc-123' } })
  t.equal(b.headers['x-request-id'], 'abc-123')
  const c = await app.inject({
    method: 'POST',
    url: '/v4/sentiment',
    headers: { 'x-request-id': 'bad id\twith spaces' },
    payload: { api_key: KEY, text: '' }
  })
  t.not(c.headers['x-request-id'], 'bad id\twith spaces')
  t.ok(c.headers['x-request-id'])
})

t.test('an uploaded image is recognised by its bytes, not its name or part type', async t => {
  const app = await build(t)
  const png = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489' +
      '0000000d4944415478da63f8cfc0f01f0005000201a5d2c1d40000000049454e44ae426082',
    'hex'
  )
  // the Python client style: filename="file", no part type; a png named .jpg with a wrong type
  for (const part of [
    { filename: 'file' },
    { filename: 'photo.jpg', type: 'image/jpeg' },
    { filename: 'x', type: 'application/octet-stream' }
  ]) {
    const res = await app.inject({
      method: 'POST',
      url: '/v4/facial_emotion',
      ...multipart([
        { name: 'api_key', value: KEY },
        { name: 'file', value: png, ...part },
        { name: 'filename', value: 'stray.png' }
      ])
    })
    // accepted as an image (the fixture store has no image model: 503 naming it, not 415)
    t.equal(res.statusCode, 503, res.body)
    t.match(res.json(), { code: 503, error: 'Service Unavailable', message: /facial_emotion/ })
  }
  const text = await app.inject({
    method: 'POST',
    url: '/v4/facial_emotion',
    ...multipart([
      { name: 'api_key', value: KEY },
      { name: 'file', value: Buffer.from('GIF89a not really'), filename: 'cat.png', type: 'image/png' }
    ])
  })
  t.equal(text.statusCode, 415)
  t.match(text.json(), { code: 415, error: 'Unsupported Media Type', message: /jpeg, png, bmp or tiff/ })
})

const odd = 'odd bodies get the message a user needs: JSON null, a repeated key or file, texts of control characters'
t.test(odd, async t => {
  const app = await build(t)
  const inject = async (o: InjectOptions) => {
    const r = await app.inject(o)
    return { status: r.statusCode, body: r.json() as { code: number; message: string } }
  }
  const json = { 'content-type': 'application/json' }
  const unread = 'The request body could not be read: '
  const notObject = 'a JSON body must be an object of fields.'
  const refused = (message: string) => ({ status: 400, body: { code: 400, error: 'Bad Request', message } })
  const sentiment = (fields: Record<string, string | string[]>) =>
    inject({ method: 'POST', url: '/v4/sentiment', headers: FORM, payload: form(fields) })
  const empty = 'must be a non-empty string (not only whitespace or control characters).'
  t.same(
    await inject({ method: 'POST', url: '/v4/sentiment', headers: json, payload: 'null' }),
    refused(`${unread}${notObject}`),
    'JSON null is refused as [1,2] is, not read as a body without a key'
  )
  t.same(
    (await sentiment({ api_key: [KEY, KEY], text: 'hi there' })).body.message,
    'api_key was sent 2 times; send it once.'
  )
  const twoFiles = multipart([
    { name: 'api_key', value: KEY },
    { name: 'file', value: 'x', filename: 'a.jpg' },
    { name: 'file', value: 'y', filename: 'b.jpg' }
  ])
  t.same(await inject({ method: 'POST', url: '/v4/facial_emotion', ...twoFiles }), {
    status: 400,
    body: { code: 400, error: 'Bad Request', message: 'file was sent 2 times; send it once.' }
  })
  for (const text of ['\u0000\u0000\u0000', '\u200b', ' \u0007 ']) {
    const one = await sentiment({ api_key: KEY, text })
    t.same(one, refused(`text ${empty}`), JSON.stringify(text))
  }
  const payload = form({ api_key: KEY, text: JSON.stringify(['fine', '\u0000']) })
  const batch = await inject({ method: 'POST', url: '/v4/sentiment_batch', headers: FORM, payload })
  t.equal(batch.body.message, 'text[1] must be a non-empty string (not only whitespace or control characters).')
  const emoji = await sentiment({ api_key: KEY, text: '👍🏽\u200d' })
  t.equal(emoji.status, 200, 'a text of emoji (with a joiner) is a text')
})

t.test("a library's bare refusal names the path: GET /dashboard/%00", async t => {
  const app = await build(t)
  const res = await app.inject({ method: 'GET', url: '/dashboard/%00' })
  t.equal(res.statusCode, 400)
  const message = 'Bad Request: GET /dashboard/%00 cannot be answered as sent (it holds a NUL byte, %00).'
  t.same(res.json(), { code: 400, error: 'Bad Request', message })
})
