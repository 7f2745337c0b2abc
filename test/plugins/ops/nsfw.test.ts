import t from 'tap'
import sharp from 'sharp'
import { build, buildWithRealModels, form, FORM, hasRealModel, KEY, multipart } from '../../helper.js'
import { PORTRAIT } from '../../image-fixtures.js'

const jpeg = Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex')
const skip = hasRealModel('nsfw') ? false : 'model-store/nsfw missing'

t.test('without its model: 503 naming it at /v4 and /v3', async t => {
  const app = await build(t)
  for (const url of ['/v4/nsfw', '/v3/nsfw']) {
    const res = await app.inject({
      method: 'POST',
      url,
      ...multipart([
        { name: 'api_key', value: KEY },
        { name: 'file', value: jpeg, filename: 'file' }
      ])
    })
    t.equal(res.statusCode, 503)
    t.match(res.json(), { code: 503, message: /model-store\/nsfw/ })
  }
})

t.test('an ordinary photo is safe to open at work; the answer has output and prob only', { skip }, async t => {
  const app = await buildWithRealModels(t, ['nsfw'], { env: { QUOTA_IMAGE_DAILY: '100' } })
  for (const url of ['/v4/nsfw', '/v3/nsfw']) {
    const res = await app.inject({
      method: 'POST',
      url,
      ...multipart([
        { name: 'api_key', value: KEY },
        { name: 'file', value: PORTRAIT, filename: 'file' }
      ])
    })
    t.equal(res.statusCode, 200, res.body)
    const body = res.json() as { output: string; prob: number }
    t.same(Object.keys(body), ['output', 'prob'])
    t.equal(body.output, 'safe to open at work')
    t.ok(body.prob >= 0.5 && body.prob <= 1)
  }
  const grey = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 90, g: 90, b: 90 } } })
    .png()
    .toBuffer()
  const plain = await app.inject({
    method: 'POST',
    url: '/v4/nsfw',
    ...multipart([
      { name: 'api_key', value: KEY },
      { name: 'file', value: grey, filename: 'file' }
    ])
  })
  t.equal((plain.json() as { output: string }).output, 'safe to open at work')
})

t.test('bad input', { skip }, async t => {
  const app = await buildWithRealModels(t, ['nsfw'])
  const none = await app.inject({ method: 'POST', url: '/v4/nsfw', headers: FORM, payload: form({ api_key: KEY }) })
  t.equal(none.statusCode, 400)
  t.match(none.json(), { code: 400, message: /neither was given/ })
  const both = await app.inject({
    method: 'POST',
    url: '/v4/nsfw',
    ...multipart([
      { name: 'api_key', value: KEY },
      { name: 'url', value: 'https://example.com/a.jpg' },
      { name: 'file', value: PORTRAIT, filename: 'file' }
    ])
  })
  t.equal(both.statusCode, 400)
  t.match(both.json(), { code: 400, message: /both were given/ })
  const http = await app.inject({
    method: 'POST',
    url: '/v4/nsfw',
    headers: FORM,
    payload: form({ api_key: KEY, url: 'http://127.0.0.1/x.jpg' })
  })
  t.equal(http.statusCode, 400)
  t.match(http.json(), { code: 400, message: /https/ })
  const text = await app.inject({
    method: 'POST',
    url: '/v4/nsfw',
    ...multipart([
      { name: 'api_key', value: KEY },
      { name: 'file', value: Buffer.from('not an image at all'), filename: 'file' }
    ])
  })
  t.equal(text.statusCode, 415)
  t.match(text.json(), { code: 415, message: /not a jpeg/ })
  const broken = await app.inject({
    method: 'POST',
    url: '/v4/nsfw',
    ...multipart([
      { name: 'api_key', value: KEY },
      { name: 'file', value: jpeg, filename: 'file' }
    ])
  })
  t.equal(broken.statusCode, 415)
  t.match(broken.json(), { code: 415 })
  const get = await app.inject({ method: 'GET', url: '/v4/nsfw' })
  t.equal(get.statusCode, 405)
})
