// What a metered request costs in Redis: one round trip (one EVALSHA that counts the request in
// its rate window and checks-and-charges the quota), whether it is served, refused (403) or
// limited (429). Counted with MONITOR on a second connection, which sees every command a client
// sends (commands run inside a script are shown apart, as coming from "lua", and left out here).
import t, { type Test } from 'tap'
import { Redis } from 'ioredis'
import { build, form, FORM, KEY, TestRedis } from '../helper.js'
import { hashKey } from '../../lib/keys.js'

type App = Awaited<ReturnType<typeof build>>
const post = (app: App, url: string, fields: Record<string, string | string[]>, remoteAddress?: string) =>
  app.inject({
    method: 'POST',
    url,
    headers: FORM,
    payload: form(fields),
    ...(remoteAddress === undefined ? {} : { remoteAddress })
  })
const KEY_ID = `env_${hashKey(KEY).slice(0, 10)}`

/** The commands clients send while `fn` runs, in order (lower case, no arguments). */
async function commands (t: Test, url: string) {
  // never reconnecting: Redis is stopped at teardown, maybe before these are closed
  const opts = { retryStrategy: () => null }
  const watcher = await new Redis(url, opts).monitor()
  const probe = new Redis(url, opts)
  for (const c of [watcher, probe]) c.on('error', () => {})
  t.teardown(() => {
    watcher.disconnect()
    probe.disconnect()
  })
  const seen: string[] = []
  let waiting: { marker: string; resolve: () => void } | null = null
  watcher.on('monitor', (_time: string, args: string[], source: string) => {
    if (source === 'lua') return
    const name = String(args[0]).toLowerCase()
    if (name === 'echo') {
      if (waiting !== null && args[1] === waiting.marker) waiting.resolve()
      return
    }
    seen.push(name)
  })
  let n = 0
  // MONITOR output trails the commands: a marker sent after them is seen after them
  const flush = async () => {
    const marker = `flush-${n++}`
    const arrived = new Promise<void>(resolve => {
      waiting = { marker, resolve }
    })
    await probe.echo(marker)
    await arrived
  }
  return async <T>(fn: () => Promise<T>): Promise<{ value: T; cmds: string[] }> => {
    await flush()
    seen.length = 0
    const value = await fn()
    await flush()
    return { value, cmds: [...seen] }
  }
}

t.test('a served request, a 403 and a 429 each cost one EVALSHA; a 429 charges nothing', async t => {
  const redis = await TestRedis.start(t)
  const count = await commands(t, redis.url)
  const env = { REDIS_URL: redis.url, REDIS_TIMEOUT_MS: '5000', RATE_LIMIT: '1000', QUOTA_TEXT_DAILY: '22' }
  const app = await build(t, { env })
  // the first call of a script on a fresh Redis loads it (EVALSHA, NOSCRIPT, EVAL): not counted
  t.equal((await post(app, '/v4/sentiment', { api_key: KEY, text: 'warm up' })).statusCode, 200)

  const single = await count(async () => {
    const codes: number[] = []
    for (let i = 0; i < 10; i++) {
      codes.push((await post(app, '/v4/sentiment', { api_key: KEY, text: `good text ${i}` })).statusCode)
    }
    return codes
  })
  t.same(single.value, Array(10).fill(200), 'ten single texts served')
  t.same(single.cmds, Array(10).fill('evalsha'), 'one EVALSHA each, nothing else')

  const batch = await count(async () => {
    const codes: number[] = []
    for (let i = 0; i < 4; i++) {
      codes.push((await post(app, '/v4/sentiment_batch', { api_key: KEY, text: '["a b","c d","e f"]' })).statusCode)
    }
    return codes
  })
  t.same(batch.value, [200, 200, 200, 403], 'batches of 3 served until the quota of 22 (1 + 10 + 3 x 3 = 20 used)')
  t.same(batch.cmds, Array(4).fill('evalsha'), 'one EVALSHA each, the refused one included')

  const res = await post(app, '/v4/sentiment', { api_key: KEY, text: 'headers' })
  t.equal(res.headers['x-ratelimit-limit'], '1000')
  t.ok(Number(res.headers['x-ratelimit-remaining']) < 1000)
  t.ok(Number(res.headers['x-ratelimit-reset']) >= 0)
  t.equal(res.headers['x-quota-daily-remaining'], '1')
})

t.test('over the rate: one EVALSHA per 429, nothing charged, 429 before validation and quota', async t => {
  const redis = await TestRedis.start(t)
  const count = await commands(t, redis.url)
  // one request per 1000 s: whatever the machine's pace, every request after the first is over the rate
  const app = await build(t, {
    env: { REDIS_URL: redis.url, REDIS_TIMEOUT_MS: '5000', RATE_LIMIT: '0.001', QUOTA_TEXT_DAILY: '1' }
  })
  t.equal((await post(app, '/v4/sentiment', { api_key: KEY, text: 'the one allowed' })).statusCode, 200)
  // and the rate-only script, which counts the invalid request below
  t.equal((await post(app, '/v4/sentiment', { api_key: 'not-a-key', text: 'x y' }, '10.1.2.3')).statusCode, 401)
  const limited = await count(async () =>
    Promise.all([
      post(app, '/v4/sentiment', { api_key: KEY, text: 'over the rate' }),
      post(app, '/v4/sentiment_batch', { api_key: KEY, text: '["over","the rate"]' }),
      post(app, '/v4/sentiment', { api_key: KEY, text: '' }),
      post(app, '/v4/emotion', { api_key: KEY, text: 'over the quota as well' })
    ])
  )
  for (const r of limited.value) {
    t.equal(r.statusCode, 429, r.body)
    t.equal(r.headers['x-ratelimit-limit'], '1')
    t.equal(r.headers['x-ratelimit-remaining'], '0')
    t.ok(Number(r.headers['retry-after']) >= 1)
  }
  t.same(limited.cmds, Array(4).fill('evalsha'), 'one EVALSHA per 429')
  const used = await app.store.usage(KEY_ID, 'text', { daily: 1, monthly: null }, app.clock())
  t.equal(used.daily.used, 1, 'the 429s charged nothing')
  t.same(
    (await app.store.history(KEY_ID, app.clock(), 1)).map(h => h.units),
    [1]
  )
})

t.test('requests that are not charged: one round trip each too', async t => {
  const redis = await TestRedis.start(t)
  const count = await commands(t, redis.url)
  const app = await build(t, {
    env: { REDIS_URL: redis.url, REDIS_TIMEOUT_MS: '5000', RATE_LIMIT: '1000', RATE_LIMIT_ANONYMOUS: '1000' }
  })
  t.equal((await post(app, '/v4/sentiment', { api_key: 'not-a-key', text: 'x y' })).statusCode, 401)
  t.equal((await post(app, '/v4/sentiment', { api_key: KEY, text: 'warm up' })).statusCode, 200)
  const r = await count(async () => [
    (await post(app, '/v4/sentiment', { api_key: 'guess', text: 'x y' }, '10.1.2.3')).statusCode,
    (await post(app, '/v4/sentiment', { text: 'x y' }, '10.1.2.3')).statusCode,
    (await post(app, '/v4/sentiment', { api_key: KEY, text: '' })).statusCode,
    (await post(app, '/v4/sentiment_batch', { api_key: KEY, text: '["ok", 5]' })).statusCode
  ])
  t.same(r.value, [401, 401, 400, 400])
  // an unknown key is looked up (GET, cached for a second) before it is refused: not a metering cost
  t.same(
    r.cmds.filter(c => c !== 'get'),
    Array(4).fill('evalsha'),
    `one EVALSHA per request (${r.cmds.join(' ')})`
  )
  const used = await app.store.usage(KEY_ID, 'text', { daily: null, monthly: null }, app.clock())
  t.equal(used.daily.used, 1, 'the 400s charged nothing')
})
