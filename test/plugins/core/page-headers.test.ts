// Security headers (plugins/core/page-headers.ts) on the pages a person opens, the dashboard and
// the docs, and none of them on the API's answers, which keep their JSON as it was.
import t from 'tap'
import { build, form, FORM, KEY } from '../../helper.js'
import { PERMISSIONS_POLICY } from '../../../plugins/core/page-headers.js'
import { swaggerInlineStyleHashes } from '../../../plugins/core/openapi.js'

// about headers, not load shedding: a busy host must not turn a page into a 503
const CALM = { MAX_EVENT_LOOP_DELAY_MS: '0' }
const PAGES = [
  '/dashboard/',
  '/dashboard/app.js',
  '/dashboard/style.css',
  '/docs',
  '/docs/',
  '/docs/static/swagger-ui-bundle.js',
  '/docs/static/swagger-initializer.js',
  '/docs/json'
]

function directives (csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map(d => d.trim().split(/\s+/))
      .filter(d => d[0] !== '')
      .map(([name, ...values]) => [name!, values])
  )
}

t.test('the dashboard and the docs: CSP, no framing, nosniff, no referrer, permissions policy', async t => {
  const app = await build(t, { env: CALM })
  for (const url of PAGES) {
    const res = await app.inject({ method: 'GET', url })
    t.equal(res.statusCode, 200, url)
    const h = res.headers
    const csp = directives(String(h['content-security-policy']))
    t.same(csp.get('script-src'), ["'self'"], `${url}: scripts of the project only (no inline, no CDN)`)
    const styles = csp.get('style-src') ?? []
    t.equal(styles[0], "'self'", `${url}: styles of the project only`)
    if (url.startsWith('/docs')) {
      t.same(styles.slice(1), swaggerInlineStyleHashes(), `${url}: and swagger-ui's one inline style, by its hash`)
    } else t.equal(styles.length, 1, `${url}: nothing inline`)
    t.same(csp.get('script-src-attr'), ["'none'"], `${url}: no inline event handlers`)
    t.same(csp.get('default-src'), ["'self'"], `${url}: default-src 'self'`)
    t.same(csp.get('object-src'), ["'none'"], `${url}: no plugins`)
    t.same(csp.get('frame-ancestors'), ["'none'"], `${url}: framed by no page`)
    t.notOk(csp.has('upgrade-insecure-requests'), `${url}: works over plain http`)
    t.equal(h['x-frame-options'], 'DENY', `${url}: X-Frame-Options for older browsers`)
    t.equal(h['x-content-type-options'], 'nosniff', url)
    t.equal(h['referrer-policy'], 'no-referrer', url)
    t.equal(h['permissions-policy'], PERMISSIONS_POLICY, url)
    t.match(h['permissions-policy'], /camera=\(\).*microphone=\(\)/)
    t.notOk('strict-transport-security' in h, `${url}: HSTS left to the TLS terminator`)
  }
  const img = directives(
    String((await app.inject({ method: 'GET', url: '/dashboard/' })).headers['content-security-policy'])
  ).get('img-src')
  t.same(
    img,
    ["'self'", 'data:', 'blob:', 'https:'],
    'the playground previews an upload (blob:) or an image address (https:)'
  )
  const docsImg = directives(
    String((await app.inject({ method: 'GET', url: '/docs/' })).headers['content-security-policy'])
  ).get('img-src')
  t.same(docsImg, ["'self'", 'data:'])
  t.same(swaggerInlineStyleHashes().length, 1, 'swagger-ui has one inline style element (its logo)')
  t.match(swaggerInlineStyleHashes()[0], /^'sha256-[A-Za-z0-9+/]{43}='$/)
  const missing = await app.inject({ method: 'GET', url: '/dashboard/missing.js' })
  t.equal(missing.statusCode, 404)
  t.match(missing.json(), { code: 404, error: 'Not Found' }, 'a missing file: the JSON 404')
})

t.test('the API answers carry none of these headers and keep their JSON', async t => {
  const app = await build(t, { env: CALM })
  const answers = [
    await app.inject({
      method: 'POST',
      url: '/v4/sentiment',
      headers: FORM,
      payload: form({ api_key: KEY, text: 'a lovely day' })
    }),
    await app.inject({ method: 'POST', url: '/v4/sentiment', headers: FORM, payload: form({ text: 'no key' }) }),
    await app.inject({ method: 'GET', url: '/v4/models' }),
    await app.inject({ method: 'GET', url: '/openapi.json' }),
    await app.inject({ method: 'GET', url: '/health/live' }),
    await app.inject({ method: 'GET', url: '/nowhere' })
  ]
  for (const res of answers) {
    const what = `${res.statusCode} ${res.body.slice(0, 40)}`
    t.match(res.headers['content-type'], /^application\/json/, what)
    for (const h of [
      'content-security-policy',
      'x-frame-options',
      'referrer-policy',
      'permissions-policy',
      'cross-origin-resource-policy'
    ]) {
      t.notOk(h in res.headers, `${what}: no ${h}`)
    }
  }
  t.match(answers[0]!.json(), { sentiment: { positive: Number, neutral: Number, negative: Number } })
  t.same(answers[1]!.json(), {
    code: 401,
    error: 'Unauthorized',
    message: 'Missing api_key: send your API key in the api_key field of the body or the query string.'
  })
})
