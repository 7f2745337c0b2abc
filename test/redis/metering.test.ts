// SPEC §3-§4 with REDIS_URL: keys, quotas and rate limits in a real, throwaway redis-server.
import t from 'tap'
import { build, form, FORM, KEY, TestRedis } from '../helper.js'
import type { Redis } from 'ioredis'
import { RedisStore } from '../../lib/store/redis.js'
import { createKey } from '../../lib/keys.js'

type App = Awaited<ReturnType<typeof build>>
const post = (app: App, url: string, fields: Record<string, string | string[]>) =>
  app.inject({ method: 'POST', url, headers: FORM, payload: form(fields) })
async function usedToday (app: App, key = KEY): Promise<number> {
  const res = await post(app, '/usage', { api_key: key })
  if (res.statusCode !== 200) throw new Error(`/usage answered ${res.statusCode}: ${res.body}`)
  return (res.json() as { text: { daily: { used: number } } }).text.daily.used
}

t.test('200 concurrent requests on two replicas never exceed the quota', async t => {
  const redis = await TestRedis.start(t)
  // a patient Redis client and no load shedding: this test is about exact counting, not timeouts
  // or overload, on a possibly busy machine
  const env = { REDIS_URL: redis.url, QUOTA_TEXT_DAILY: '150', REDIS_TIMEOUT_MS: '5000', MAX_EVENT_LOOP_DELAY_MS: '0' }
  const [a, b] = [await build(t, { env }), await build(t, { env })]
  const results = await Promise.all(
    Array.from({ length: 200 }, (_, i) =>
      post(i % 2 === 0 ? a! : b!, '/v4/sentiment', { api_key: KEY, text: `text number ${i}` })
    )
  )
  const ok = results.filter(r => r.statusCode === 200).length
  const refused = results.filter(r => r.statusCode === 403).length
  t.equal(ok, 150, 'exactly the quota is served')
  t.equal(refused, 50, 'the rest is refused')
  t.equal(await usedToday(a!), 150, 'charged exactly what was answered')
  t.equal(await usedToday(b!), 150, 'both replicas agree')
  // a batch that would cross the line is refused whole
  const batch = await post(a!, '/v4/sentiment_batch', { api_key: KEY, text: '["x y"]' })
  t.equal(batch.statusCode, 403, batch.body)
})

t.test('batches charged by size, concurrently, against one quota', async t => {
  const redis = await TestRedis.start(t)
  const app = await build(t, {
    env: { REDIS_URL: redis.url, QUOTA_TEXT_MONTHLY: '100', REDIS_TIMEOUT_MS: '5000', MAX_EVENT_LOOP_DELAY_MS: '0' }
  })
  const texts = JSON.stringify(Array.from({ length: 7 }, (_, i) => `text ${i}`))
  const results = await Promise.all(
    Array.from({ length: 30 }, () => post(app, '/v4/emotion_batch', { api_key: KEY, text: texts }))
  )
  const ok = results.filter(r => r.statusCode === 200).length
  t.equal(ok, 14, '14 batches of 7 fit in 100')
  t.equal(results.filter(r => r.statusCode === 403).length, 16)
  const u = (await post(app, '/usage', { api_key: KEY })).json() as { text: { monthly: { used: number } } }
  t.equal(u.text.monthly.used, 98)
})

t.test('day and month rollover, and refund on 5xx', async t => {
  const redis = await TestRedis.start(t)
  let now = new Date('2026-03-31T23:59:58.000Z')
  const app = await build(t, {
    env: {
      REDIS_URL: redis.url,
      QUOTA_TEXT_DAILY: '1',
      QUOTA_TEXT_MONTHLY: '2',
      REDIS_TIMEOUT_MS: '5000',
      MAX_EVENT_LOOP_DELAY_MS: '0'
    },
    clock: () => now
  })
  t.equal((await post(app, '/v4/intent', { api_key: KEY, text: 'win a free prize' })).statusCode, 200)
  t.equal((await post(app, '/v4/intent', { api_key: KEY, text: 'win a free prize' })).statusCode, 403)
  now = new Date('2026-04-01T00:00:00.500Z')
  const m = app.models.get('intent')!
  const orig = m.predict.bind(m)
  m.predict = async () => {
    throw new Error('model crashed')
  }
  t.equal((await post(app, '/v4/intent', { api_key: KEY, text: 'win a free prize' })).statusCode, 500)
  m.predict = orig
  t.equal(await usedToday(app), 0, 'the 5xx was refunded')
  const res = await post(app, '/v4/intent', { api_key: KEY, text: 'win a free prize' })
  t.equal(res.statusCode, 200, 'new day, new month, and the refund left room')
  t.equal(res.headers['x-quota-monthly-remaining'], '1')
})

t.test('keys created in Redis are found by every replica; revocation is seen within a second', async t => {
  const redis = await TestRedis.start(t)
  const admin = new RedisStore(redis.url, { timeoutMs: 500 })
  await admin.connect(2000)
  t.teardown(() => admin.close())
  const { key, record } = await createKey(admin, 'customer', {
    textDaily: 3,
    textMonthly: null,
    imageDaily: null,
    imageMonthly: null,
    rate: null
  })
  const raw = await (admin.client as Redis).keys('*')
  t.notOk(
    raw.some(k => k.includes(key)),
    'the key itself is not a Redis key name'
  )
  t.notOk(
    (await (admin.client as Redis).get(`otia:{keys}:key:${record.hash}`))?.includes(key),
    'the key itself is not stored'
  )
  const env = { REDIS_URL: redis.url }
  const [a, b] = [await build(t, { env }), await build(t, { env })]
  t.equal((await post(a!, '/v4/sentiment', { api_key: key, text: 'good stuff' })).statusCode, 200)
  const r = await post(b!, '/v4/sentiment', { api_key: key, text: 'good stuff' })
  t.equal(r.statusCode, 200)
  t.equal(r.headers['x-quota-daily-remaining'], '1', 'the plan of the stored key applies on the other replica')
  await admin.deleteKey(record.id)
  await new Promise(resolve => setTimeout(resolve, 1100))
  t.equal((await post(a!, '/v4/sentiment', { api_key: key, text: 'good stuff' })).statusCode, 401)
  t.equal((await post(b!, '/v4/sentiment', { api_key: key, text: 'good stuff' })).statusCode, 401)
})

t.test('rate limit shared by replicas through Redis', async t => {
  const redis = await TestRedis.start(t)
  const env = { REDIS_URL: redis.url, RATE_LIMIT: '0.2' }
  const [a, b] = [await build(t, { env }), await build(t, { env })]
  t.equal((await post(a!, '/v4/taxonomy', { api_key: KEY, text: 'stocks fell today' })).statusCode, 200)
  const second = await post(b!, '/v4/taxonomy', { api_key: KEY, text: 'stocks fell today' })
  t.equal(second.statusCode, 429, 'the other replica sees the same count')
  t.ok(Number(second.headers['retry-after']) >= 1)
})

t.test('Redis stopped mid-test: 503 with Retry-After within a second, recovery when it is back', async t => {
  const redis = await TestRedis.start(t)
  const app = await build(t, { env: { REDIS_URL: redis.url, QUOTA_TEXT_DAILY: '100', RATE_LIMIT: '1000' } })
  t.equal((await post(app, '/v4/sentiment', { api_key: KEY, text: 'all good' })).statusCode, 200)
  await redis.down()
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now()
    const res = await post(app, '/v4/sentiment', { api_key: KEY, text: 'all good' })
    const ms = performance.now() - t0
    t.equal(res.statusCode, 503, `down: ${res.body}`)
    t.match(res.json(), { code: 503, error: 'Service Unavailable', message: /quota store is unavailable/ })
    t.equal(res.headers['retry-after'], '1')
    t.ok(ms < 1000, `answered in ${Math.round(ms)} ms`)
  }
  const ready = await app.inject({ method: 'GET', url: '/health/ready' })
  t.equal(ready.statusCode, 503, 'not ready while the store is down')
  t.equal((await app.inject({ method: 'GET', url: '/health/live' })).statusCode, 200, 'still live')
  await redis.up()
  let status = 0
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    status = (await post(app, '/v4/sentiment', { api_key: KEY, text: 'all good' })).statusCode
    if (status === 200) break
    await new Promise(resolve => setTimeout(resolve, 200))
  }
  t.equal(status, 200, 'service resumed by itself')
  t.equal((await app.inject({ method: 'GET', url: '/health/ready' })).statusCode, 200)
})

t.test('FAIL_OPEN serves while Redis is down and counts those requests when it is back', async t => {
  const redis = await TestRedis.start(t, { persist: true })
  const app = await build(t, { env: { REDIS_URL: redis.url, QUOTA_TEXT_DAILY: '100', FAIL_OPEN: 'true' } })
  t.equal((await post(app, '/v4/sentiment', { api_key: KEY, text: 'before' })).statusCode, 200)
  await redis.down()
  for (let i = 0; i < 3; i++) {
    t.equal(
      (await post(app, '/v4/sentiment_batch', { api_key: KEY, text: '["a b","c d"]' })).statusCode,
      200,
      'served while down'
    )
  }
  await redis.up()
  let used = 0
  for (let i = 0; i < 60 && used !== 7; i++) {
    await new Promise(resolve => setTimeout(resolve, 200))
    const res = await post(app, '/usage', { api_key: KEY })
    if (res.statusCode === 200) used = (res.json() as { text: { daily: { used: number } } }).text.daily.used
  }
  t.equal(used, 7, 'the 6 texts served during the outage are counted after it, with the 1 before')
})
