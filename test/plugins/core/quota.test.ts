// SPEC §4 on the embedded store: quotas (403), rate limits (429), headers, batch cost, refunds.
import t from 'tap'
import { build, form, FORM, KEY } from '../../helper.js'
import { hashKey } from '../../../lib/keys.js'

const post = (
  app: Awaited<ReturnType<typeof build>>,
  url: string,
  fields: Record<string, string | string[]>,
  headers: Record<string, string> = {}
) => app.inject({ method: 'POST', url, headers: { ...FORM, ...headers }, payload: form(fields) })

async function usage (app: Awaited<ReturnType<typeof build>>, key = KEY) {
  const res = await post(app, '/usage', { api_key: key })
  return res.json() as {
    text: { daily: { used: number; remaining: number | null }; monthly: { used: number; remaining: number | null } }
    image: { daily: { used: number } }
    history: Array<{ day: string; op: string; units: number }>
  }
}

t.test('batch cost is the number of texts; quota headers; 403 charges nothing and names the dashboard', async t => {
  const app = await build(t, {
    env: { QUOTA_TEXT_DAILY: '5', QUOTA_TEXT_MONTHLY: '100', DASHBOARD_URL: 'https://dash.example/upgrade' }
  })
  const a = await post(app, '/v4/sentiment_batch', { api_key: KEY, text: JSON.stringify(['one', 'two', 'three']) })
  t.equal(a.statusCode, 200)
  t.equal(a.headers['x-quota-daily-remaining'], '2')
  t.equal(a.headers['x-quota-monthly-remaining'], '97')
  const b = await post(app, '/v4/sentiment_batch', { api_key: KEY, text: JSON.stringify(['one', 'two', 'three']) })
  t.equal(b.statusCode, 403)
  t.match(b.json(), {
    code: 403,
    error: 'Forbidden',
    message: /daily text quota .* is 5 .*https:\/\/dash\.example\/upgrade/
  })
  t.equal((await usage(app)).text.daily.used, 3, 'the refused batch charged nothing')
  const c = await post(app, '/v4/similarity', { api_key: KEY, text_1: 'two words', text_2: 'two more' })
  t.equal(c.statusCode, 200)
  t.equal(c.headers['x-quota-daily-remaining'], '1', 'similarity costs 1')
  const u = await usage(app)
  t.equal(u.text.daily.used, 4)
  t.equal(u.text.monthly.used, 4)
  t.same(u.history.map(h => [h.op, h.units]).sort(), [
    ['sentiment_batch', 3],
    ['similarity', 1]
  ])
})

t.test('monthly quota refuses too', async t => {
  const app = await build(t, { env: { QUOTA_TEXT_MONTHLY: '2' } })
  t.equal((await post(app, '/v4/emotion', { api_key: KEY, text: 'happy days' })).statusCode, 200)
  t.equal((await post(app, '/v4/emotion', { api_key: KEY, text: 'happy days' })).statusCode, 200)
  const res = await post(app, '/v4/emotion', { api_key: KEY, text: 'happy days' })
  t.equal(res.statusCode, 403)
  t.match(res.json(), { message: /monthly text quota/ })
})

t.test('only validated requests are charged; a failed answer is refunded', async t => {
  const app = await build(t, { env: { QUOTA_TEXT_DAILY: '10', QUOTA_IMAGE_DAILY: '10' } })
  await post(app, '/v4/sentiment', { api_key: KEY, text: '' })
  await post(app, '/v4/sentiment_batch', { api_key: KEY, text: '["ok", 5]' })
  await post(app, '/v4/ner', { api_key: KEY, text: 'Hola', lang_code: 'xx' })
  t.equal((await usage(app)).text.daily.used, 0, 'no charge for 400s')
  const m = app.models.get('sentiment')!
  const orig = m.predict.bind(m)
  m.predict = async () => {
    throw new Error('boom')
  }
  const failed = await post(app, '/v4/sentiment_batch', { api_key: KEY, text: '["a b","c d"]' })
  m.predict = orig
  t.equal(failed.statusCode, 500)
  t.equal((await usage(app)).text.daily.used, 0, 'refunded after a 5xx')
  // the fixture store has no image model: a 503 that is refunded, counted against images only
  const img = await post(app, '/v4/facial_emotion', { api_key: KEY, url: 'https://example.com/x.jpg' })
  t.equal(img.statusCode, 503)
  const u = await usage(app)
  t.equal(u.image.daily.used, 0)
  t.same(u.history, [])
})

t.test('day and month rollover (UTC)', async t => {
  let now = new Date('2026-01-31T23:59:59.000Z')
  const app = await build(t, { env: { QUOTA_TEXT_DAILY: '2', QUOTA_TEXT_MONTHLY: '3' }, clock: () => now })
  t.equal((await post(app, '/v4/sarcasm', { api_key: KEY, text: 'oh great, more rain' })).statusCode, 200)
  t.equal((await post(app, '/v4/sarcasm', { api_key: KEY, text: 'oh great, more rain' })).statusCode, 200)
  t.equal(
    (await post(app, '/v4/sarcasm', { api_key: KEY, text: 'oh great, more rain' })).statusCode,
    403,
    'daily quota reached'
  )
  now = new Date('2026-02-01T00:00:01.000Z')
  const next = await post(app, '/v4/sarcasm', { api_key: KEY, text: 'oh great, more rain' })
  t.equal(next.statusCode, 200, 'a new day and a new month')
  t.equal(next.headers['x-quota-daily-remaining'], '1')
  t.equal(next.headers['x-quota-monthly-remaining'], '2')
  now = new Date('2026-02-02T10:00:00.000Z')
  t.equal((await post(app, '/v4/sarcasm', { api_key: KEY, text: 'x y' })).statusCode, 200)
  now = new Date('2026-02-03T10:00:00.000Z')
  t.equal((await post(app, '/v4/sarcasm', { api_key: KEY, text: 'x y' })).statusCode, 200)
  const res = await post(app, '/v4/sarcasm', { api_key: KEY, text: 'x y' })
  t.equal(res.statusCode, 403)
  t.match(res.json(), { message: /monthly text quota .* resets at 2026-03-01T00:00:00.000Z/ })
})

t.test('rate limit per key: 429 with Retry-After, X-RateLimit headers on metered answers', async t => {
  const app = await build(t, { env: { RATE_LIMIT: '0.2' } })
  const a = await post(app, '/v4/intent', { api_key: KEY, text: 'buy now, limited offer' })
  t.equal(a.statusCode, 200)
  t.equal(a.headers['x-ratelimit-limit'], '1')
  t.equal(a.headers['x-ratelimit-remaining'], '0')
  t.ok(Number(a.headers['x-ratelimit-reset']) >= 1)
  const b = await post(app, '/v4/intent', { api_key: KEY, text: 'buy now, limited offer' })
  t.equal(b.statusCode, 429)
  t.match(b.json(), { code: 429, error: 'Too Many Requests', message: /Too many requests/ })
  t.ok(
    Number(b.headers['retry-after']) >= 1 && Number(b.headers['retry-after']) <= 5,
    `retry-after ${b.headers['retry-after']}`
  )
})

t.test('rate limiting comes before limits and validation; a refused request counts in the rate window', async t => {
  // one request per 1000 s: every request after the first is over the rate, however slow the machine
  const app = await build(t, { env: { RATE_LIMIT: '0.001', QUOTA_TEXT_DAILY: '5' } })
  const a = await post(app, '/v4/sentiment', { api_key: KEY, text: '' })
  t.equal(a.statusCode, 400, 'under the rate, the validation error')
  t.equal(a.headers['x-ratelimit-limit'], '1')
  t.equal(a.headers['x-ratelimit-remaining'], '0')
  const b = await post(app, '/v4/sentiment', { api_key: KEY, text: 'a valid text' })
  t.equal(b.statusCode, 429, 'the 400 used the window')
  t.ok(Number(b.headers['retry-after']) >= 1)
  const c = await post(app, '/v4/sentiment_batch', {
    api_key: KEY,
    text: JSON.stringify(Array.from({ length: 1001 }, () => 'x'))
  })
  t.equal(c.statusCode, 429, 'a 413 over the rate is a 429')
  t.match(c.json(), { code: 429, error: 'Too Many Requests', message: /Too many requests/ })
  t.equal(c.headers['x-ratelimit-remaining'], '0')
  t.ok(Number(c.headers['retry-after']) >= 1)
  t.notOk(c.headers.connection === 'close', 'the body was read whole: the connection stays')
  t.equal((await post(app, '/v4/sentiment', { api_key: KEY, text: '' })).statusCode, 429, 'a 400 over the rate too')
  const used = await app.store.usage(
    `env_${hashKey(KEY).slice(0, 10)}`,
    'text',
    { daily: 5, monthly: null },
    app.clock()
  )
  t.equal(used.daily.used, 0, 'nothing charged')
})

t.test('a key over its rate can still read /usage: /usage has a window of its own', async t => {
  const app = await build(t, { env: { RATE_LIMIT: '0.001' } })
  t.equal((await post(app, '/v4/sentiment', { api_key: KEY, text: 'one' })).statusCode, 200)
  t.equal((await post(app, '/v4/sentiment', { api_key: KEY, text: 'two' })).statusCode, 429, 'over the rate')
  const u = await post(app, '/usage', { api_key: KEY })
  t.equal(u.statusCode, 200, `the usage of the key that hit 429 (${u.body.slice(0, 120)})`)
  t.equal((u.json() as { text: { daily: { used: number } } }).text.daily.used, 1)
  t.equal(
    (await post(app, '/usage', { api_key: KEY })).statusCode,
    429,
    '/usage itself is still limited at the same rate'
  )
  t.equal(
    (await post(app, '/v4/sentiment', { api_key: KEY, text: 'three' })).statusCode,
    429,
    'and reading it did not open the operations window'
  )
})

t.test('rate limit per client address for requests without a valid key', async t => {
  const app = await build(t, { env: { RATE_LIMIT_ANONYMOUS: '0.2' } })
  t.equal((await post(app, '/v4/sentiment', { api_key: 'guess-1', text: 'x y' })).statusCode, 401)
  const b = await post(app, '/v4/sentiment', { api_key: 'guess-2', text: 'x y' })
  t.equal(b.statusCode, 429, 'guessing keys is limited')
  t.ok(b.headers['retry-after'])
  const other = await app.inject({
    method: 'POST',
    url: '/v4/sentiment',
    remoteAddress: '10.9.8.7',
    headers: FORM,
    payload: form({ api_key: 'guess-3', text: 'x y' })
  })
  t.equal(other.statusCode, 401, 'another address has its own budget')
  t.equal(
    (await post(app, '/v4/sentiment', { api_key: KEY, text: 'x y' })).statusCode,
    200,
    'a valid key is limited by its own plan'
  )
})

t.test('/usage reports plan and usage; POST only; needs a key', async t => {
  const app = await build(t, { env: { QUOTA_TEXT_DAILY: '50', QUOTA_IMAGE_MONTHLY: '7', RATE_LIMIT: '5' } })
  await post(app, '/v4/taxonomy_batch', { api_key: KEY, text: '["a b", "c d"]' })
  for (const url of ['/usage', '/v4/usage']) {
    const res = await post(app, url, { api_key: KEY })
    t.equal(res.statusCode, 200)
    t.match(res.json(), {
      key: { id: /^env_/, name: 'API_KEYS' },
      rate_limit: 5,
      text: { daily: { used: 2, limit: 50, remaining: 48 }, monthly: { used: 2, limit: null, remaining: null } },
      image: { daily: { used: 0, limit: null }, monthly: { used: 0, limit: 7, remaining: 7 } }
    })
  }
  t.equal((await post(app, '/usage', {})).statusCode, 401)
})
