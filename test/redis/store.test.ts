// The Redis store's charge markers: a charge whose reply was lost can be undone exactly once, and
// an undo that arrives before a re-sent charge cancels it.
import t from 'tap'
import { RedisStore } from '../../lib/store/redis.js'
import { TestRedis } from '../helper.js'

t.test('undo restores the counters once; an early undo cancels a late charge', async t => {
  const redis = await TestRedis.start(t)
  const store = new RedisStore(redis.url, { timeoutMs: 500 })
  t.ok(await store.connect(2000))
  t.teardown(() => store.close())
  const now = new Date('2026-05-05T12:00:00Z')
  const limits = { daily: 10, monthly: null }
  const a = await store.charge('k1', 'text', 3, limits, now, 'sentiment_batch', 'req-a')
  t.equal(a.daily.used, 3)
  t.equal(await store.undo('req-a', 'k1'), true, 'undone')
  t.equal(await store.undo('req-a', 'k1'), false, 'only once')
  t.equal((await store.usage('k1', 'text', limits, now)).daily.used, 0)
  t.same(await store.history('k1', now, 30), [], 'history undone too')
  // a charge under req-b was sent (its reply lost) and is late: the undo gets there first
  t.equal(await store.undo('req-b', 'k1'), false, 'nothing to undo yet')
  await t.rejects(
    store.charge('k1', 'text', 2, limits, now, 'sentiment', 'req-b'),
    /cancelled/,
    'a charge after its undo is refused'
  )
  t.equal((await store.usage('k1', 'text', limits, now)).daily.used, 0)
  const c = await store.charge('k1', 'text', 10, limits, now, 'sentiment_batch', 'req-c')
  t.ok(c.ok)
  const d = await store.charge('k1', 'text', 1, limits, now, 'sentiment', 'req-d')
  t.notOk(d.ok, 'over the quota')
  t.equal(d.refusedBy, 'daily')
  t.equal(await store.undo('req-d', 'k1'), false, 'a refused charge left nothing to undo')
  t.equal((await store.usage('k1', 'text', limits, now)).daily.used, 10)
})

t.test('meter: the rate count and the charge in one step; over the rate nothing is charged', async t => {
  const redis = await TestRedis.start(t)
  const store = new RedisStore(redis.url, { timeoutMs: 2000 })
  t.ok(await store.connect(2000))
  t.teardown(() => store.close())
  const now = new Date('2026-05-05T12:00:00Z')
  const limits = { daily: 5, monthly: null }
  // a window of 1000 s: no test run is slow enough to see it end
  const rate = { key: 'k:k2', windowMs: 1_000_000, max: 2 }
  const a = await store.meter(rate, 'k2', 'text', 1, limits, now, 'sentiment', 'm-a')
  t.match(a, { limited: false, rate: { current: 1 }, charge: { ok: true, daily: { used: 1 } } })
  t.ok(a.rate!.ttl > 990_000 && a.rate!.ttl <= 1_000_000)
  const b = await store.meter(rate, 'k2', 'text', 9, limits, now, 'sentiment_batch', 'm-b')
  t.match(
    b,
    { limited: false, rate: { current: 2 }, charge: { ok: false, refusedBy: 'daily', daily: { used: 1 } } },
    'a refused charge still counts in the window'
  )
  const c = await store.meter(rate, 'k2', 'text', 1, limits, now, 'sentiment', 'm-c')
  t.match(c, { limited: true, rate: { current: 3 }, charge: null }, 'over the rate')
  t.equal(await store.undo('m-c', 'k2'), false, 'a limited request left no charge to undo')
  t.equal((await store.usage('k2', 'text', limits, now)).daily.used, 1, 'only the first was charged')
  t.equal((await store.hit('k:k2', 1_000_000)).current, 4, '@fastify/rate-limit counts in the same window')
  t.equal(await store.undo('m-d', 'k2'), false)
  await t.rejects(
    store.meter(rate, 'k2', 'text', 1, limits, now, 'sentiment', 'm-d'),
    /cancelled/,
    'a request re-sent after its undo is refused'
  )
  t.equal((await store.hit('k:k2', 1_000_000)).current, 5, '...and not counted again')
})

t.test('keys and counts written before hash tags are moved on connect', async t => {
  const redis = await TestRedis.start(t)
  const old = new RedisStore(redis.url, { timeoutMs: 2000 })
  t.ok(await old.connect(2000))
  t.teardown(() => old.close())
  const raw = old.client as import('ioredis').Redis
  const now = new Date()
  const day = now.toISOString().slice(0, 10)
  const record = {
    id: 'key_old',
    name: 'old',
    hash: 'f'.repeat(64),
    plan: { textDaily: 10, textMonthly: null, imageDaily: null, imageMonthly: null, rate: null },
    created: day,
    source: 'store'
  }
  await raw.set(`otia:key:${record.hash}`, JSON.stringify(record))
  await raw.hset('otia:keys', record.id, record.hash)
  await raw.set(`otia:q:key_old:text:d:${day}`, 4)
  await raw.set(`otia:q:key_old:text:m:${day.slice(0, 7)}`, 6)
  await raw.hset(`otia:h:key_old:${day}`, 'sentiment', 4)
  const store = new RedisStore(redis.url, { timeoutMs: 2000 })
  t.ok(await store.connect(2000))
  t.teardown(() => store.close())
  t.equal((await store.getKeyByHash(record.hash))?.id, 'key_old', 'the key is found')
  t.same(
    (await store.listKeys()).map(k => k.id),
    ['key_old']
  )
  t.match(
    await store.usage('key_old', 'text', { daily: 10, monthly: null }, now),
    { daily: { used: 4 }, monthly: { used: 6 } },
    'the counts kept'
  )
  t.same(await store.history('key_old', now, 1), [{ day, op: 'sentiment', units: 4 }])
  t.same(
    (await raw.keys('otia:*')).filter(k => !k.includes('{')),
    [],
    'no name left untagged'
  )
})
