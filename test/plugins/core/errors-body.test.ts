// SPEC §3, §5, §6: image file and url rules (400), bodies, texts and images over their limits (413),
// unreadable content (415) and malformed bodies (400) answer with a JSON body {code, error, message}.
import t from 'tap'
import { build, form, KEY, multipart } from '../../helper.js'
import { isError, post, postForm } from './error-shape.js'

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
