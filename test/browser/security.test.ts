// The browser's side of docs/security.md, in headless Chromium (Debian's, driven by playwright-core):
// a page on a listed origin calls the API and reads its answers, errors and headers included; a
// page on another origin cannot read them, and its preflighted calls never reach the API; no page
// can frame the dashboard; the docs render under their CSP with nothing refused.
import t from 'tap'
import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { chromium, type Browser, type Page } from 'playwright-core'
import { build, KEY } from '../helper.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const skip = existsSync(CHROMIUM) ? false : `Chromium not found at ${CHROMIUM}: apt-get install -y chromium`
const KEY2 = 'second-test-key-0123456789'
// about headers, not load shedding: a busy host must not turn answers into 503s
const CALM = { MAX_EVENT_LOOP_DELAY_MS: '0' }

type Tap = { teardown(fn: () => unknown): void }

/** A page server on its own loopback port (so its own origin): `/` is a bare page, `/frame` frames `frame`. */
async function pageServer (t: Tap, frame = ''): Promise<string> {
  const server: Server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(
      req.url === '/frame'
        ? `<!doctype html><title>framing</title><iframe src="${frame}"></iframe>`
        : '<!doctype html><title>a web app</title><p>a web app on its own origin</p>'
    )
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise(resolve => server.close(resolve)))
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`
}

async function launch (t: Tap): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync'
    ]
  })
  t.teardown(() => browser.close())
  return browser
}

interface Answer {
  ok: true
  status: number
  body: unknown
  headers: Record<string, string | null>
}
interface Failure {
  ok: false
  error: string
}
const READ = ['x-request-id', 'x-quota-daily-remaining', 'x-ratelimit-limit', 'retry-after', 'content-type']

/** fetch() from inside the page, as its own scripts would: what the page gets to see. */
async function call (page: Page, url: string, body: string, type: string): Promise<Answer | Failure> {
  return page.evaluate(
    async ({ url, body, type, read }) => {
      try {
        const res = await fetch(url, { method: 'POST', headers: { 'content-type': type }, body })
        return {
          ok: true as const,
          status: res.status,
          body: await res.json(),
          headers: Object.fromEntries(read.map(h => [h, res.headers.get(h)]))
        }
      } catch (err) {
        return { ok: false as const, error: String(err) }
      }
    },
    { url, body, type, read: READ }
  )
}
const formBody = (f: Record<string, string>) => new URLSearchParams(f).toString()
const FORM = 'application/x-www-form-urlencoded'
const JSONT = 'application/json'

t.test(
  'a page on a listed origin reads every answer; a page on another origin reads none',
  { skip, timeout: 120_000 },
  async t => {
    const allowed = await pageServer(t)
    const app = await build(t, {
      env: { ...CALM, API_KEYS: `${KEY},${KEY2}`, QUOTA_TEXT_DAILY: '3', CORS_ORIGINS: allowed }
    })
    await app.listen({ host: '127.0.0.1', port: 0 })
    const api = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`
    const refused = await pageServer(t, `${api}/dashboard/`)
    const browser = await launch(t)
    const sentiment = `${api}/v4/sentiment`

    const page = await browser.newPage()
    await page.goto(allowed)
    // a simple request (no preflight): form-encoded, as most clients send
    const a = (await call(page, sentiment, formBody({ api_key: KEY, text: 'I love this phone' }), FORM)) as Answer
    t.equal(a.status, 200, JSON.stringify(a))
    t.match(a.body, { sentiment: { positive: Number, neutral: Number, negative: Number } })
    t.match(a.headers['x-request-id'], /^[\w-]{8,}$/, 'X-Request-Id readable')
    t.equal(a.headers['x-quota-daily-remaining'], '2', 'X-Quota-Daily-Remaining readable')
    // a JSON body is preflighted: the preflight passes, then the call
    const b = (await call(page, sentiment, JSON.stringify({ api_key: KEY, text: 'awful service' }), JSONT)) as Answer
    t.equal(b.status, 200, JSON.stringify(b))
    t.equal(b.headers['x-quota-daily-remaining'], '1')
    const c = (await call(page, sentiment, JSON.stringify({ text: 'no key' }), JSONT)) as Answer
    t.equal(c.status, 401, 'a 401 is readable')
    t.match(c.body, { code: 401, error: 'Unauthorized', message: /Missing api_key/ })
    t.equal(
      ((await call(page, sentiment, JSON.stringify({ api_key: KEY, text: 'last one' }), JSONT)) as Answer).status,
      200
    )
    const d = (await call(page, sentiment, formBody({ api_key: KEY, text: 'one too many' }), FORM)) as Answer
    t.equal(d.status, 403, 'a 403 is readable')
    t.match(d.body, { code: 403, error: 'Forbidden', message: /Quota exceeded/ })
    t.equal(d.headers['x-quota-daily-remaining'], '0', 'and its quota header')

    const other = await browser.newPage()
    const blocked: string[] = []
    other.on('console', m => {
      if (/CORS policy/.test(m.text())) blocked.push(m.text())
    })
    await other.goto(refused)
    const e = await call(other, sentiment, formBody({ api_key: KEY2, text: 'I love this phone' }), FORM)
    t.match(
      e,
      { ok: false, error: /TypeError: Failed to fetch/ },
      'a simple request: sent, but its answer is not readable'
    )
    const f = await call(other, sentiment, JSON.stringify({ api_key: KEY2, text: 'I love this phone' }), JSONT)
    t.match(f, { ok: false, error: /TypeError: Failed to fetch/ }, 'a preflighted one fails at the preflight')
    const g = await call(other, sentiment, JSON.stringify({ text: 'no key' }), JSONT)
    t.match(g, { ok: false }, 'errors are not readable either')
    t.ok(
      blocked.some(m => /No 'Access-Control-Allow-Origin' header/.test(m)),
      `Chromium names the missing header: ${blocked[0]}`
    )
    const usage = (await (
      await fetch(`${api}/usage`, {
        method: 'POST',
        headers: { 'content-type': FORM },
        body: formBody({ api_key: KEY2 })
      })
    ).json()) as { text: { daily: { used: number } } }
    t.equal(usage.text.daily.used, 1, 'only the simple request reached the API; the preflighted call was never sent')

    // framing: the dashboard refuses to be framed by any page
    const framing = await browser.newPage()
    const refusals: string[] = []
    framing.on('console', m => {
      if (/frame-ancestors/.test(m.text())) refusals.push(m.text())
    })
    await framing.goto(`${refused}/frame`)
    await framing.waitForTimeout(500)
    const inner = framing.frames().find(fr => fr !== framing.mainFrame())
    t.not(
      await inner?.title().catch(() => ''),
      'Dashboard · Open text and image analysis API',
      'the dashboard did not load in the frame'
    )
    t.ok(refusals.length > 0, `refused by frame-ancestors: ${refusals[0]}`)
  }
)

t.test('the docs render under their CSP with nothing refused', { skip, timeout: 120_000 }, async t => {
  const app = await build(t, { env: CALM })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const api = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`
  const browser = await launch(t)
  const page = await browser.newPage()
  const refused: string[] = []
  const errors: string[] = []
  page.on('console', m => {
    if (/Content Security Policy|Permissions-Policy|Permissions policy/i.test(m.text())) refused.push(m.text())
  })
  page.on('pageerror', e => errors.push(e.message))
  // seen by the page itself too (the init script is the browser's, outside the CSP)
  await page.addInitScript(() => {
    const w = window as unknown as { violations: string[] }
    w.violations = []
    document.addEventListener('securitypolicyviolation', e => {
      w.violations.push(`${e.violatedDirective} ${e.blockedURI}`)
    })
  })
  const res = await page.goto(`${api}/docs`)
  t.equal(res?.status(), 200)
  t.match(res?.headers()['content-security-policy'], /script-src 'self';/)
  await page.locator('.swagger-ui .info .title').getByText('Open text and image analysis API').waitFor()
  const op = page.locator('.opblock-summary-path', { hasText: /^\/v4\/sentiment$/ }).first()
  await op.click()
  await page
    .locator('.opblock.is-open .parameters-container, .opblock.is-open .opblock-section-request-body')
    .first()
    .waitFor()
  t.ok((await page.locator('.opblock').count()) > 10, 'the operations are listed')
  // try it: the page calls the API from its own origin (connect-src 'self')
  await page.getByRole('button', { name: 'Try it out' }).first().click()
  await page.getByRole('button', { name: 'Execute' }).first().click()
  await page.locator('.opblock.is-open .live-responses-table .response-col_status').first().waitFor()
  t.match(
    await page.locator('.opblock.is-open .live-responses-table .response .response-col_status').first().textContent(),
    /\d{3}/,
    'an answer shown'
  )
  t.same(
    await page.evaluate(() => (window as unknown as { violations: string[] }).violations),
    [],
    'no securitypolicyviolation event'
  )
  t.same(refused, [], 'nothing refused by the CSP or the permissions policy')
  t.same(errors, [], 'no script errors')
})
