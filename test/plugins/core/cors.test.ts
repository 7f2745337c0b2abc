// CORS (plugins/core/cors.ts): off by default; with CORS_ORIGINS, preflights from a listed origin
// answer 204 and every answer to it, errors and load-shed 503s included, carries the headers a
// browser needs to read it; a refused origin gets none, and its preflight a JSON 403.
import t from 'tap'
import type { Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { build, form, FORM, KEY } from '../../helper.js'
import { EXPOSED, MAX_AGE } from '../../../plugins/core/cors.js'

// about headers, not load shedding (but the last test): a busy host must not turn answers into 503s
const CALM = { MAX_EVENT_LOOP_DELAY_MS: '0' }
const APP = 'https://app.example'
const EVIL = 'https://evil.example'
const preflight = (app: FastifyInstance, url: string, origin?: string) =>
  app.inject({
    method: 'OPTIONS',
    url,
    headers: {
      ...(origin === undefined ? {} : { origin }),
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type'
    }
  })
const post = (app: FastifyInstance, url: string, fields: Record<string, string>, origin?: string) =>
  app.inject({
    method: 'POST',
    url,
    headers: { ...FORM, ...(origin === undefined ? {} : { origin }) },
    payload: form(fields)
  })

/** the headers that let a page on `origin` read the answer */
function readable (t: Test, res: { headers: Record<string, unknown> }, origin: string, what: string) {
  t.equal(res.headers['access-control-allow-origin'], origin, `${what}: Access-Control-Allow-Origin`)
  t.same(
    String(res.headers['access-control-expose-headers']).split(', '),
    EXPOSED,
    `${what}: the headers a client acts on exposed`
  )
  t.match(res.headers.vary, /Origin/, `${what}: Vary: Origin`)
}
function notReadable (t: Test, res: { headers: Record<string, unknown> }, what: string) {
  t.notOk('access-control-allow-origin' in res.headers, `${what}: no Access-Control-Allow-Origin`)
  t.notOk('access-control-expose-headers' in res.headers, `${what}: nothing exposed`)
}

t.test('off by default: no CORS headers, a preflight is the usual JSON 404', async t => {
  const app = await build(t, { env: CALM })
  const pre = await preflight(app, '/v4/sentiment', APP)
  t.equal(pre.statusCode, 404)
  t.same(pre.json(), {
    code: 404,
    error: 'Not Found',
    message: 'No such path: OPTIONS /v4/sentiment. Operations are POST /v4/<operation>; see /docs.'
  })
  notReadable(t, pre, 'preflight')
  const res = await post(app, '/v4/sentiment', { api_key: KEY, text: 'lovely' }, APP)
  t.equal(res.statusCode, 200)
  notReadable(t, res, 'answer')
})

t.test('a listed origin: preflight 204 with methods, headers and max-age; answers readable', async t => {
  const app = await build(t, { env: { ...CALM, CORS_ORIGINS: `${APP}, http://localhost:5173` } })
  const pre = await preflight(app, '/v4/sentiment', APP)
  t.equal(pre.statusCode, 204)
  t.equal(pre.body, '')
  t.type(pre.headers['x-request-id'], 'string', 'the preflight has a request id')
  readable(t, pre, APP, 'preflight')
  t.equal(pre.headers['access-control-allow-methods'], 'GET, HEAD, POST')
  t.match(String(pre.headers['access-control-allow-headers']).toLowerCase(), /(^|, )content-type(,|$)/)
  t.equal(pre.headers['access-control-max-age'], String(MAX_AGE))
  t.notOk('access-control-allow-credentials' in pre.headers, 'no credentials: the key travels in the body')
  t.equal((await preflight(app, '/v4/sentiment_batch', 'http://localhost:5173')).statusCode, 204, 'the second origin')
  t.equal((await preflight(app, '/usage', APP)).statusCode, 204, '/usage too')

  const ok = await post(app, '/v4/sentiment', { api_key: KEY, text: 'lovely' }, APP)
  t.equal(ok.statusCode, 200)
  readable(t, ok, APP, '200')
  t.type(ok.headers['x-request-id'], 'string')
  const models = await app.inject({ method: 'GET', url: '/v4/models', headers: { origin: APP } })
  readable(t, models, APP, 'GET /v4/models')
  notReadable(t, await post(app, '/v4/sentiment', { api_key: KEY, text: 'lovely' }), 'no Origin (curl, a server)')
})

t.test('a refused origin: a JSON 403 to its preflight, no CORS headers on its answers', async t => {
  const app = await build(t, { env: { ...CALM, CORS_ORIGINS: APP } })
  for (const origin of [EVIL, 'https://app.example.evil.example', 'http://app.example', 'https://app.example:8443']) {
    const pre = await preflight(app, '/v4/sentiment', origin)
    t.equal(pre.statusCode, 403, origin)
    t.type(pre.headers['x-request-id'], 'string')
    t.same(pre.json(), {
      code: 403,
      error: 'Forbidden',
      message:
        `Cross-origin calls from "${origin}" are not allowed to this API; ` +
        'the operator lists the origins that may call it in CORS_ORIGINS.'
    })
    notReadable(t, pre, `preflight from ${origin}`)
  }
  // a simple request is sent by the browser without a preflight: it is answered, but not readable
  const res = await post(app, '/v4/sentiment', { api_key: KEY, text: 'lovely' }, EVIL)
  t.equal(res.statusCode, 200)
  notReadable(t, res, 'answer to a refused origin')
  const bare = await app.inject({ method: 'OPTIONS', url: '/v4/sentiment' })
  t.equal(bare.statusCode, 404, 'an OPTIONS that is no preflight: the usual 404')
  t.match(bare.json(), { code: 404, error: 'Not Found' })
  const half = await app.inject({ method: 'OPTIONS', url: '/v4/sentiment', headers: { origin: APP } })
  t.equal(half.statusCode, 204, 'a listed origin without Access-Control-Request-Method: answered, not a text/plain 400')
})

t.test('the operator API is same-origin only, even for a listed origin', async t => {
  const app = await build(t, { env: { ...CALM, CORS_ORIGINS: APP, ADMIN_TOKEN: 'operator-secret' } })
  const pre = await preflight(app, '/admin/keys', APP)
  t.equal(pre.statusCode, 403)
  t.match(pre.json(), {
    code: 403,
    error: 'Forbidden',
    message: /not allowed to the operator API \(same origin only\)/
  })
  notReadable(t, pre, 'admin preflight')
  t.equal((await preflight(app, '/admin', APP)).statusCode, 403, '/admin itself too')
  const res = await app.inject({
    method: 'GET',
    url: '/admin/keys',
    headers: { origin: APP, authorization: 'Bearer operator-secret' }
  })
  t.equal(res.statusCode, 200)
  notReadable(t, res, 'admin answer')
  const bare = await app.inject({ method: 'OPTIONS', url: '/admin/keys' })
  t.equal(bare.statusCode, 404, 'an OPTIONS without Origin: the usual 404')
  t.match(bare.json(), { code: 404, error: 'Not Found', message: /OPTIONS \/admin\/keys/ })
})

t.test('CORS_ORIGINS=*: any origin, Access-Control-Allow-Origin: *', async t => {
  const app = await build(t, { env: { ...CALM, CORS_ORIGINS: '*' } })
  const pre = await preflight(app, '/v4/emotion', EVIL)
  t.equal(pre.statusCode, 204)
  t.equal(pre.headers['access-control-allow-origin'], '*')
  const res = await post(app, '/v4/emotion', { api_key: KEY, text: 'so happy' }, 'http://127.0.0.1:8080')
  t.equal(res.statusCode, 200)
  readable(t, res, '*', 'answer')
  notReadable(t, await post(app, '/v4/emotion', { api_key: KEY, text: 'so happy' }), 'no Origin')
})

t.test('errors are readable from a listed origin: 400, 401, 403, 404, 405, 406, 413, 415, 429', async t => {
  const app = await build(t, { env: { ...CALM, CORS_ORIGINS: APP, TEXT_MAX_CHARS: '20' } })
  const quota = await build(t, { env: { ...CALM, CORS_ORIGINS: APP, QUOTA_TEXT_DAILY: '1' } })
  const rate = await build(t, { env: { ...CALM, CORS_ORIGINS: APP, RATE_LIMIT: '0.01' } })
  t.equal((await post(quota, '/v4/sentiment', { api_key: KEY, text: 'the one allowed' }, APP)).statusCode, 200)
  t.equal((await post(rate, '/v4/sentiment', { api_key: KEY, text: 'the one allowed' }, APP)).statusCode, 200)
  const cases: Array<[number, () => ReturnType<typeof post>]> = [
    [400, () => post(app, '/v4/sentiment', { api_key: KEY, text: '   ' }, APP)],
    [401, () => post(app, '/v4/sentiment', { text: 'no key' }, APP)],
    [403, () => post(quota, '/v4/sentiment', { api_key: KEY, text: 'over quota' }, APP)],
    [404, () => app.inject({ method: 'GET', url: '/v4/nothing', headers: { origin: APP } })],
    [405, () => app.inject({ method: 'GET', url: '/v4/sentiment', headers: { origin: APP } })],
    [
      406,
      () =>
        app.inject({
          method: 'POST',
          url: '/v4/sentiment',
          headers: { 'content-type': 'application/json', origin: APP },
          payload: { api_key: 7, text: 'x' }
        })
    ],
    [413, () => post(app, '/v4/sentiment', { api_key: KEY, text: 'far more than twenty characters' }, APP)],
    [
      415,
      () =>
        app.inject({
          method: 'POST',
          url: '/v4/sentiment',
          headers: { 'content-type': 'text/csv', origin: APP },
          payload: 'a,b'
        })
    ],
    [429, () => post(rate, '/v4/sentiment', { api_key: KEY, text: 'too soon' }, APP)]
  ]
  for (const [status, send] of cases) {
    const res = await send()
    t.equal(res.statusCode, status, `${status}: ${res.body.slice(0, 120)}`)
    t.match(res.headers['content-type'], /^application\/json/)
    readable(t, res, APP, String(status))
  }
  const limited = await post(rate, '/v4/sentiment', { api_key: KEY, text: 'too soon' }, APP)
  t.type(limited.headers['retry-after'], 'string', 'Retry-After on the 429')
  t.type(limited.headers['x-ratelimit-limit'], 'string', 'X-RateLimit-Limit on the 429')
  const over = await post(quota, '/v4/sentiment', { api_key: KEY, text: 'over quota' }, APP)
  t.equal(over.headers['x-quota-daily-remaining'], '0', 'X-Quota-Daily-Remaining on the 403')
})

t.test('a load-shed 503 is readable from a listed origin; a preflight is never shed', async t => {
  const app = await build(t, { env: { CORS_ORIGINS: APP, MAX_EVENT_LOOP_DELAY_MS: '20' } })
  const send = () => post(app, '/v4/sentiment', { api_key: KEY, text: 'fine words' }, APP)
  await new Promise(resolve => setTimeout(resolve, 600))
  let res = await send()
  let pre = res
  for (let i = 0; i < 5 && res.statusCode !== 503; i++) {
    const until = Date.now() + 300
    while (Date.now() < until) {
      /* block the event loop */
    }
    await new Promise(resolve => setImmediate(resolve))
    res = await send()
    pre = await preflight(app, '/v4/sentiment', APP)
  }
  t.equal(res.statusCode, 503)
  t.match(res.json(), { code: 503, error: 'Service Unavailable' })
  t.equal(res.headers['retry-after'], '1')
  readable(t, res, APP, '503')
  t.equal(pre.statusCode, 204, 'the preflight beside it was answered')
})
