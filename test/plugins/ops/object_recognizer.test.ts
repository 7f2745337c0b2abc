import t from 'tap'
import { build, KEY, multipart } from '../../helper.js'

const jpeg = Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex')

t.test('served at /v4 and /v3; an image without its model is a 503 naming it, not a made-up answer', async (t) => {
  const app = await build(t)
  for (const url of ['/v4/object_recognizer', '/v3/object_recognizer']) {
    const res = await app.inject({ method: 'POST', url, ...multipart([{ name: 'api_key', value: KEY }, { name: 'file', value: jpeg, filename: 'file' }]) })
    t.equal(res.statusCode, 503)
    t.match(res.json(), { code: 503, message: /model-store\/object_recognizer/ })
  }
})
