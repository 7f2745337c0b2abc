// SPEC §3, §5, §6: unknown paths (404), wrong methods (405), models not installed (503) and internal errors
// (500) answer with a JSON body {code, error, message} that reveals no internals.
import t from 'tap'
import { build, KEY } from '../../helper.js'
import { isError, postForm } from './error-shape.js'

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
