// SPEC §3, §5, §6: every bad input answers its status with a JSON body {code, error, message}.
import t, { type Test } from 'tap'
import { build, form, FORM, KEY, multipart } from '../../helper.js'

type Res = { statusCode: number; headers: Record<string, unknown>; json(): unknown; body: string }

function isError (t: Test, res: Res, code: number, message: RegExp, what: string) {
  t.equal(res.statusCode, code, `${what}: status (${res.body.slice(0, 200)})`)
  t.match(String(res.headers['content-type']), /application\/json/, `${what}: JSON content type`)
  const body = res.json() as Record<string, unknown>
  t.same(Object.keys(body).sort(), ['code', 'error', 'message'], `${what}: body shape`)
  t.equal(body.code, code, `${what}: code`)
  t.type(body.error, 'string')
  t.match(body.message, message, `${what}: message`)
}

const post = (app: Awaited<ReturnType<typeof build>>, url: string, payload: unknown) =>
  app.inject({ method: 'POST', url, payload: payload as Record<string, unknown> })
const postForm = (app: Awaited<ReturnType<typeof build>>, url: string, fields: Record<string, string | string[]>) =>
  app.inject({ method: 'POST', url, headers: FORM, payload: form(fields) })

t.test('401: missing, empty or unknown api_key', async t => {
  const app = await build(t)
  isError(t, await postForm(app, '/v4/sentiment', { text: 'hello there' }), 401, /Missing api_key/, 'missing')
  isError(
    t,
    await postForm(app, '/v4/sentiment', { text: 'hello there', api_key: '' }),
    401,
    /Missing api_key/,
    'empty'
  )
  isError(
    t,
    await postForm(app, '/v4/sentiment', { text: 'hello there', api_key: '   ' }),
    401,
    /Missing api_key/,
    'blank'
  )
  isError(
    t,
    await postForm(app, '/v4/sentiment', { text: 'hello there', api_key: 'nope' }),
    401,
    /Invalid api_key/,
    'unknown'
  )
  isError(
    t,
    await postForm(app, '/v4/facial_emotion', { url: 'https://example.com/a.jpg', api_key: 'nope' }),
    401,
    /Invalid api_key/,
    'unknown, image op'
  )
  isError(t, await postForm(app, '/usage', { api_key: 'nope' }), 401, /Invalid api_key/, 'unknown, usage')
})

t.test('406: api_key present but not a string', async t => {
  const app = await build(t)
  isError(
    t,
    await post(app, '/v4/sentiment', { api_key: 12345, text: 'hello there' }),
    406,
    /api_key must be a string/,
    'number'
  )
  isError(
    t,
    await post(app, '/v4/sentiment', { api_key: { k: KEY }, text: 'hello there' }),
    406,
    /api_key must be a string/,
    'object'
  )
  isError(
    t,
    await post(app, '/v4/sentiment', { api_key: [KEY], text: 'hello there' }),
    406,
    /api_key must be a string/,
    'array'
  )
  isError(
    t,
    await app.inject({
      method: 'POST',
      url: '/v4/sentiment',
      ...multipart([
        { name: 'api_key', value: KEY, filename: 'key.txt' },
        { name: 'text', value: 'hello there' }
      ])
    }),
    406,
    /api_key must be a string/,
    'file part'
  )
})

t.test('406: a parameter of the wrong type', async t => {
  const app = await build(t)
  isError(t, await post(app, '/v4/sentiment', { api_key: KEY, text: 42 }), 406, /text must be a string/, 'text number')
  isError(
    t,
    await post(app, '/v4/sentiment', { api_key: KEY, text: { a: 1 } }),
    406,
    /text must be a string/,
    'text object'
  )
  isError(
    t,
    await post(app, '/v4/sentiment_batch', { api_key: KEY, text: { a: 1 } }),
    406,
    /text must be an array/,
    'batch text object'
  )
  isError(t, await post(app, '/v4/facial_emotion', { api_key: KEY, url: 7 }), 406, /url must be a string/, 'url number')
  isError(
    t,
    await post(app, '/v4/facial_emotion', { api_key: KEY, file: 'not a file' }),
    406,
    /file must be an uploaded file/,
    'file as a string'
  )
  isError(
    t,
    await post(app, '/v4/similarity', { api_key: KEY, text_1: 'two words', text_2: 5 }),
    406,
    /text_2 must be a string/,
    'text_2 number'
  )
  isError(
    t,
    await post(app, '/v4/sentiment', { api_key: KEY, text: 'two words', lang_code: 3 }),
    406,
    /lang_code must be a string/,
    'lang_code number'
  )
})

t.test('400: missing, empty or invalid text', async t => {
  const app = await build(t)
  isError(t, await postForm(app, '/v4/sentiment', { api_key: KEY }), 400, /Missing parameter: text/, 'missing text')
  isError(
    t,
    await postForm(app, '/v4/sentiment', { api_key: KEY, text: '' }),
    400,
    /text must be a non-empty string/,
    'empty text'
  )
  isError(
    t,
    await postForm(app, '/v4/sentiment', { api_key: KEY, text: ' \n\t ' }),
    400,
    /text must be a non-empty string/,
    'whitespace text'
  )
  isError(
    t,
    await postForm(app, '/v4/sentiment', { api_key: KEY, text: ['a b', 'c d'] }),
    400,
    /one string on this path.*sentiment_batch/,
    'array on a single path'
  )
  isError(
    t,
    await post(app, '/v4/ner', { api_key: KEY, text: ['a b'] }),
    400,
    /one string on this path/,
    'JSON array on a single path'
  )
  isError(
    t,
    await postForm(app, '/v4/keywords', { api_key: KEY, 'text[0]': 'a b' }),
    400,
    /one string on this path/,
    'indexed on a single path'
  )
})

t.test('400: bad batches', async t => {
  const app = await build(t)
  isError(
    t,
    await post(app, '/v4/sentiment_batch', { api_key: KEY, text: [] }),
    400,
    /at least one text/,
    'empty array'
  )
  isError(
    t,
    await postForm(app, '/v4/sentiment_batch', { api_key: KEY, text: '[]' }),
    400,
    /at least one text/,
    'empty JSON array string'
  )
  isError(
    t,
    await postForm(app, '/v4/sentiment_batch', { api_key: KEY, text: '["a", ' }),
    400,
    /JSON array of strings/,
    'broken JSON array'
  )
  isError(
    t,
    await post(app, '/v4/sentiment_batch', { api_key: KEY, text: ['fine', 3] }),
    400,
    /text\[1\] must be a non-empty string/,
    'number item'
  )
  isError(
    t,
    await post(app, '/v4/sentiment_batch', { api_key: KEY, text: ['fine', ''] }),
    400,
    /text\[1\] must be a non-empty string/,
    'empty item'
  )
  isError(
    t,
    await post(app, '/v4/sentiment_batch', { api_key: KEY, text: ['fine', '  '] }),
    400,
    /text\[1\] must be a non-empty string/,
    'blank item'
  )
  isError(
    t,
    await post(app, '/v4/sentiment_batch', { api_key: KEY, text: ['fine', null] }),
    400,
    /text\[1\] must be a non-empty string/,
    'null item'
  )
  isError(
    t,
    await post(app, '/v4/sentiment_batch', { api_key: KEY, text: ['fine', ['nested']] }),
    400,
    /text\[1\] must be a non-empty string/,
    'nested array item'
  )
  isError(
    t,
    await post(app, '/v4/sentiment_batch', { api_key: KEY, text: Array.from({ length: 1001 }, (_, i) => `text ${i}`) }),
    400,
    /at most 1000 texts; this one has 1001/,
    'over the batch limit'
  )
  const max = await post(app, '/v4/sentiment_batch', {
    api_key: KEY,
    text: Array.from({ length: 1000 }, (_, i) => `text ${i}`)
  })
  t.equal(max.statusCode, 200, 'exactly the batch limit is fine')
})

t.test('400: similarity texts need two words each', async t => {
  const app = await build(t)
  isError(
    t,
    await postForm(app, '/v4/similarity', { api_key: KEY, text_1: 'word', text_2: 'two words' }),
    400,
    /text_1 must contain at least two words/,
    'one word'
  )
  isError(
    t,
    await postForm(app, '/v4/similarity', { api_key: KEY, text_1: 'two words', text_2: '!!! ...' }),
    400,
    /text_2 must contain at least two words/,
    'no words'
  )
  isError(
    t,
    await postForm(app, '/v4/similarity', { api_key: KEY, text_1: 'two words' }),
    400,
    /Missing parameter: text_2/,
    'missing text_2'
  )
  isError(
    t,
    await postForm(app, '/v4/similarity', { api_key: KEY, text_1: 'two words', text_2: '  ' }),
    400,
    /text_2 must be a non-empty string/,
    'blank text_2'
  )
  const ok = await postForm(app, '/v4/similarity', { api_key: KEY, text_1: 'two words', text_2: 'deux mots' })
  t.equal(ok.statusCode, 200)
})

t.test('400: unsupported lang_code lists the supported ones', async t => {
  const app = await build(t)
  isError(
    t,
    await postForm(app, '/v4/sentiment', { api_key: KEY, text: 'hola amigo', lang_code: 'xx' }),
    400,
    /lang_code "xx" is not supported by sentiment; supported: en/,
    'sentiment xx'
  )
  isError(
    t,
    await postForm(app, '/v4/ner', { api_key: KEY, text: 'Hallo Anna', lang_code: 'fr' }),
    400,
    /supported: en, es, nl, de/,
    'ner fr'
  )
  isError(
    t,
    await postForm(app, '/v4/similarity', { api_key: KEY, text_1: 'two words', text_2: 'two more', lang_code: 'ja' }),
    400,
    /not supported by similarity/,
    'similarity ja'
  )
  for (const lang of ['en', 'es', 'nl', 'de', 'DE']) {
    const res = await postForm(app, '/v4/ner', { api_key: KEY, text: 'Anna Schmidt wohnt in Berlin', lang_code: lang })
    t.equal(res.statusCode, 200, `ner ${lang}`)
  }
  t.equal(
    (await postForm(app, '/v4/sentiment', { api_key: KEY, text: 'fine day', lang_code: 'en' })).statusCode,
    200,
    'sentiment en'
  )
})

t.test('400: new/intent query must be feedback', async t => {
  const app = await build(t)
  isError(
    t,
    await postForm(app, '/v4/new/intent', { api_key: KEY, text: 'please fix the app', query: 'other' }),
    400,
    /query must be one of|query must be "feedback"/,
    'query other'
  )
  const ok = await postForm(app, '/v4/new/intent', { api_key: KEY, text: 'please fix the app', query: 'feedback' })
  t.equal(ok.statusCode, 200)
  const body = ok.json() as { intent: Record<string, number>; feedback: Record<string, number> }
  t.same(Object.keys(body.feedback), ['complaint', 'suggestion', 'appreciation'])
  t.ok(Math.abs(Object.values(body.feedback).reduce((a, b) => a + b, 0) - 1) < 1e-5)
  const plain = (await postForm(app, '/v4/new/intent', { api_key: KEY, text: 'please fix the app' })).json() as Record<
    string,
    unknown
  >
  t.same(Object.keys(plain), ['intent'])
})

t.test('400: image file and url rules', async t => {
  const app = await build(t)
  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex')
  isError(
    t,
    await postForm(app, '/v4/facial_emotion', { api_key: KEY }),
    400,
    /exactly one of file.*neither was given/,
    'neither'
  )
  isError(
    t,
    await app.inject({
      method: 'POST',
      url: '/v4/object_recognizer',
      ...multipart([
        { name: 'api_key', value: KEY },
        { name: 'url', value: 'https://example.com/a.png' },
        { name: 'file', value: png, filename: 'file' }
      ])
    }),
    400,
    /both were given/,
    'both'
  )
  isError(
    t,
    await postForm(app, '/v4/facial_emotion', { api_key: KEY, url: 'http://example.com/a.jpg' }),
    400,
    /url must be an https/,
    'http url'
  )
  isError(
    t,
    await postForm(app, '/v3/facial_emotion', { api_key: KEY, url: 'ftp://example.com/a.jpg' }),
    400,
    /url must be an https/,
    'ftp url on /v3'
  )
  isError(
    t,
    await postForm(app, '/v4/object_recognizer', { api_key: KEY, url: 'not a url' }),
    400,
    /url must be an https/,
    'not a url'
  )
})

t.test('413: body, text and image over their limits', async t => {
  const app = await build(t, {
    env: { BODY_LIMIT: String(64 * 1024), TEXT_MAX_CHARS: '1000', IMAGE_MAX_BYTES: String(32 * 1024) }
  })
  isError(
    t,
    await postForm(app, '/v4/sentiment', { api_key: KEY, text: 'x'.repeat(70 * 1024) }),
    413,
    /request body is over the limit/,
    'urlencoded body'
  )
  isError(
    t,
    await post(app, '/v4/sentiment', { api_key: KEY, text: 'y'.repeat(70 * 1024) }),
    413,
    /request body is over the limit/,
    'JSON body'
  )
  isError(
    t,
    await postForm(app, '/v4/sentiment', { api_key: KEY, text: 'z'.repeat(1001) }),
    413,
    /text is longer than the limit of 1000 characters/,
    'text'
  )
  isError(
    t,
    await post(app, '/v4/sentiment_batch', { api_key: KEY, text: ['ok', 'w'.repeat(1001)] }),
    413,
    /text\[1\] is longer than the limit/,
    'batch item'
  )
  isError(
    t,
    await postForm(app, '/v4/similarity', { api_key: KEY, text_1: 'two words', text_2: 'v '.repeat(600) }),
    413,
    /text_2 is longer/,
    'similarity text'
  )
  const big = Buffer.concat([Buffer.from('ffd8ffe0', 'hex'), Buffer.alloc(40 * 1024, 1)])
  isError(
    t,
    await app.inject({
      method: 'POST',
      url: '/v4/facial_emotion',
      ...multipart([
        { name: 'api_key', value: KEY },
        { name: 'file', value: big, filename: 'big.jpg' }
      ])
    }),
    413,
    /image is over the limit/,
    'image file'
  )
  isError(
    t,
    await app.inject({
      method: 'POST',
      url: '/v4/sentiment',
      ...multipart([
        { name: 'api_key', value: KEY },
        { name: 'text', value: 'q'.repeat(70 * 1024) }
      ])
    }),
    413,
    /over the limit/,
    'multipart text field'
  )
})

t.test('415: not an image, and unreadable content types', async t => {
  const app = await build(t)
  for (const [name, bytes] of Object.entries({
    gif: Buffer.from('GIF89a\x01\x00\x01\x00'),
    text: Buffer.from('hello, I am text'),
    empty: Buffer.alloc(0),
    webp: Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 ')
  })) {
    const res = await app.inject({
      method: 'POST',
      url: '/v4/object_recognizer',
      ...multipart([
        { name: 'api_key', value: KEY },
        { name: 'file', value: bytes, filename: 'x.jpg', type: 'image/jpeg' }
      ])
    })
    isError(t, res, 415, /not a jpeg, png, bmp or tiff/, name)
  }
  isError(
    t,
    await app.inject({
      method: 'POST',
      url: '/v4/sentiment',
      headers: { 'content-type': 'text/xml' },
      payload: '<text>hi</text>'
    }),
    415,
    /Content-Type .* is not accepted/,
    'xml body'
  )
  // an empty body of any type, with the fields in the query string, is fine (old clients)
  const q = await app.inject({
    method: 'POST',
    url: `/v4/sentiment?${form({ api_key: KEY, text: 'fine words' })}`,
    headers: { 'content-type': 'text/plain' }
  })
  t.equal(q.statusCode, 200)
})

t.test('400: malformed bodies', async t => {
  const app = await build(t)
  isError(
    t,
    await app.inject({
      method: 'POST',
      url: '/v4/sentiment',
      headers: { 'content-type': 'application/json' },
      payload: '{"api_key": "x", '
    }),
    400,
    /JSON is invalid/,
    'broken JSON'
  )
  isError(
    t,
    await app.inject({
      method: 'POST',
      url: '/v4/sentiment',
      headers: { 'content-type': 'application/json' },
      payload: '["a"]'
    }),
    400,
    /must be an object/,
    'JSON array body'
  )
  const mp = multipart([
    { name: 'api_key', value: KEY },
    { name: 'text', value: 'hello there friend' }
  ])
  const cut = mp.payload.subarray(0, mp.payload.length - 30)
  isError(
    t,
    await app.inject({ method: 'POST', url: '/v4/sentiment', headers: mp.headers, payload: cut }),
    400,
    /multipart body is malformed or truncated/,
    'truncated multipart'
  )
  isError(
    t,
    await app.inject({
      method: 'POST',
      url: '/v4/sentiment',
      headers: { 'content-type': 'multipart/form-data' },
      payload: 'no boundary here'
    }),
    400,
    /multipart|boundary|malformed/i,
    'no boundary'
  )
  // larger than a stream buffer, with a boundary that never appears: read to the end, then 400
  isError(
    t,
    await app.inject({
      method: 'POST',
      url: '/v4/sentiment',
      headers: { 'content-type': 'multipart/form-data; boundary=zz' },
      payload: Buffer.alloc(300_000, 7)
    }),
    400,
    /malformed or truncated/,
    'garbage body'
  )
})

t.test('404 unknown path, 405 wrong method with Allow: POST', async t => {
  const app = await build(t)
  isError(
    t,
    await app.inject({ method: 'POST', url: '/v4/nothing' }),
    404,
    /No such path: POST \/v4\/nothing/,
    'unknown op'
  )
  isError(t, await app.inject({ method: 'GET', url: '/' }), 404, /No such path/, 'root')
  for (const url of [
    '/v4/sentiment',
    '/v4/sentiment_batch',
    '/v4/similarity',
    '/v4/new/intent',
    '/v4/new/intent_batch',
    '/v4/facial_emotion',
    '/v3/object_recognizer',
    '/usage'
  ]) {
    const res = await app.inject({ method: 'GET', url })
    isError(t, res, 405, /GET is not allowed on .*; use POST/, `GET ${url}`)
    t.equal(res.headers.allow, 'POST')
  }
  const del = await app.inject({ method: 'DELETE', url: '/v4/ner' })
  t.equal(del.statusCode, 405)
  isError(
    t,
    await app.inject({ method: 'POST', url: '/v4/similarity_batch' }),
    404,
    /No such path/,
    'similarity has no batch'
  )
})

t.test('503: an operation whose model is not installed names it; nothing is made up', async t => {
  const app = await build(t, { env: { MODEL_STORE: 'does-not-exist' } })
  for (const op of ['sentiment', 'emotion', 'ner', 'keywords', 'taxonomy', 'sarcasm', 'intent', 'new/intent']) {
    isError(
      t,
      await postForm(app, `/v4/${op}`, { api_key: KEY, text: 'some text here' }),
      503,
      new RegExp(`model for ${op.replace('/', '\\/')} is not installed`),
      op
    )
  }
  isError(
    t,
    await postForm(app, '/v4/similarity', { api_key: KEY, text_1: 'two words', text_2: 'two words' }),
    503,
    /model-store\/similarity/,
    'similarity'
  )
})

t.test('5xx bodies reveal no internals', async t => {
  const app = await build(t)
  const m = app.models.get('sentiment')!
  const orig = m.predict.bind(m)
  m.predict = async () => {
    throw new Error('secret internal detail /etc/passwd')
  }
  t.teardown(() => {
    m.predict = orig
  })
  const res = await postForm(app, '/v4/sentiment', { api_key: KEY, text: 'some text here' })
  isError(t, res, 500, /Internal error; quote request id/, 'thrown in a model')
  t.notMatch(res.body, /secret|passwd|at /)
})

t.test(
  'a 4xx under /docs, /dashboard and /metrics is that 4xx in the JSON shape, with a request id (was a 500)',
  async t => {
    const app = await build(t)
    for (const url of [
      '/docs/static/nope.js',
      '/docs/static/../../package.json',
      '/docs/nope',
      '/dashboard/nope.js',
      '/metrics/nope'
    ]) {
      const res = await app.inject({ method: 'GET', url })
      isError(t, res, 404, /./, url)
      t.match(String(res.headers['x-request-id']), /\S/, `${url}: request id`)
      t.notMatch(res.body, /Cannot read|undefined/, `${url}: no internals`)
    }
  }
)
