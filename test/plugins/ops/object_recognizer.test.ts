import t from 'tap'
import sharp from 'sharp'
import https from 'node:https'
import { build, buildWithRealModels, form, FORM, hasRealModel, KEY, multipart, tempDir } from '../../helper.js'
import { PORTRAIT, selfSignedCert } from '../../image-fixtures.js'

const jpeg = Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex')

t.test('without its model: 503 naming it at /v4 and /v3', async t => {
  const app = await build(t)
  for (const url of ['/v4/object_recognizer', '/v3/object_recognizer']) {
    const res = await app.inject({
      method: 'POST',
      url,
      ...multipart([
        { name: 'api_key', value: KEY },
        { name: 'file', value: jpeg, filename: 'file' }
      ])
    })
    t.equal(res.statusCode, 503)
    t.match(res.json(), { code: 503, message: /model-store\/object_recognizer/ })
  }
})

t.test(
  'with the model: up to 5 labels, best first, unique, with boxes',
  { skip: hasRealModel('object_recognizer') ? false : 'model-store/object_recognizer missing' },
  async t => {
    const app = await buildWithRealModels(t, ['object_recognizer'], { env: { QUOTA_IMAGE_DAILY: '100' } })
    const res = await app.inject({
      method: 'POST',
      url: '/v4/object_recognizer',
      ...multipart([
        { name: 'api_key', value: KEY },
        { name: 'file', value: PORTRAIT, filename: 'file' }
      ])
    })
    t.equal(res.statusCode, 200, res.body)
    t.equal(res.headers['x-quota-daily-remaining'], '99', 'one image unit')
    const body = res.json() as {
      output: Array<{ tag: string; score: number }>
      boxes: Array<{ tag: string; box: { x: number; y: number; width: number; height: number } }>
    }
    t.ok(body.output.length >= 1 && body.output.length <= 5)
    t.ok(
      body.output.some(o => o.tag === 'dog'),
      'the dog in the picture'
    )
    t.equal(new Set(body.output.map(o => o.tag)).size, body.output.length, 'de-duplicated by label')
    for (let i = 1; i < body.output.length; i++) t.ok(body.output[i - 1]!.score >= body.output[i]!.score)
    for (const b of body.boxes) {
      t.ok(b.box.x >= 0 && b.box.x + b.box.width <= 1200 && b.box.y + b.box.height <= 900, `${b.tag} box inside`)
    }
    const blank = await sharp({ create: { width: 200, height: 200, channels: 3, background: { r: 0, g: 0, b: 0 } } })
      .png()
      .toBuffer()
    const empty = await app.inject({
      method: 'POST',
      url: '/v3/object_recognizer',
      ...multipart([
        { name: 'api_key', value: KEY },
        { name: 'file', value: blank, filename: 'file' }
      ])
    })
    t.equal(empty.statusCode, 200)
    t.ok(Array.isArray((empty.json() as { output: unknown[] }).output))
    // a url that is not https is refused before any fetch
    const http = await app.inject({
      method: 'POST',
      url: '/v4/object_recognizer',
      headers: FORM,
      payload: form({ api_key: KEY, url: 'http://127.0.0.1/x.jpg' })
    })
    t.equal(http.statusCode, 400)
  }
)

t.test(
  'by https address: an allow-listed local server, /v4 and /v3; a hostile address is a 400 and free',
  { skip: hasRealModel('object_recognizer') ? false : 'model-store/object_recognizer missing' },
  async t => {
    const tls = selfSignedCert(tempDir(t))
    const hits: string[] = []
    const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
      hits.push(req.url ?? '')
      res.end(PORTRAIT)
    })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    t.teardown(
      () =>
        new Promise<void>(resolve => {
          server.closeAllConnections()
          server.close(() => resolve())
        })
    )
    const port = (server.address() as { port: number }).port
    const app = await buildWithRealModels(t, ['object_recognizer'], {
      env: { IMAGE_FETCH_ALLOW_HOSTS: '127.0.0.1', IMAGE_FETCH_CA_FILE: tls.certFile, QUOTA_IMAGE_DAILY: '10' }
    })
    for (const path of ['/v4/object_recognizer', '/v3/object_recognizer']) {
      const res = await app.inject({
        method: 'POST',
        url: path,
        headers: FORM,
        payload: form({ api_key: KEY, url: `https://127.0.0.1:${port}/photo.jpg` })
      })
      t.equal(res.statusCode, 200, res.body)
      t.ok((res.json() as { output: Array<{ tag: string }> }).output.some(o => o.tag === 'dog'))
    }
    t.equal(hits.length, 2)
    const hostile = await app.inject({
      method: 'POST',
      url: '/v4/object_recognizer',
      headers: FORM,
      payload: form({ api_key: KEY, url: 'https://169.254.169.254/latest/meta-data/' })
    })
    t.equal(hostile.statusCode, 400)
    t.match(hostile.json(), {
      code: 400,
      message: /could not be fetched: the address resolves to a private, loopback or reserved/
    })
    const usage = (
      await app.inject({ method: 'POST', url: '/usage', headers: FORM, payload: form({ api_key: KEY }) })
    ).json() as { image: { daily: { used: number } } }
    t.equal(usage.image.daily.used, 2, 'the refused fetch was not charged')
  }
)
