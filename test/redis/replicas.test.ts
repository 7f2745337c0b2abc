// Two service processes sharing one real Redis: quotas and rate limits hold across them, and a
// Redis outage in the middle of a load run loses no counts and hangs no request.
import t, { type Test } from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { FIXTURES, freePort, KEY, tempDir, TestRedis } from '../helper.js'

const root = join(import.meta.dirname, '..', '..')

async function replica (t: Test, env: Record<string, string>): Promise<string> {
  const port = await freePort()
  const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/server.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      API_KEYS: KEY,
      MODEL_STORE: FIXTURES,
      DATA_DIR: tempDir(t),
      LOG_LEVEL: 'error',
      ...env
    },
    stdio: ['ignore', 'ignore', 'inherit']
  })
  t.teardown(() => {
    proc.kill('SIGKILL')
  })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${url}/health/live`)).ok) return url
    } catch {}
    await new Promise(resolve => setTimeout(resolve, 200))
  }
  throw new Error('replica did not start')
}

const call = (base: string, text: string) =>
  fetch(`${base}/v4/sentiment`, { method: 'POST', body: new URLSearchParams({ api_key: KEY, text }) })
async function used (base: string): Promise<number> {
  for (let i = 0; ; i++) {
    const res = await fetch(`${base}/usage`, { method: 'POST', body: new URLSearchParams({ api_key: KEY }) })
    if (res.ok || i >= 20) return ((await res.json()) as { text: { daily: { used: number } } }).text.daily.used
    await new Promise(resolve => setTimeout(resolve, 100))
  }
}
// counting tests on a loaded machine: patient Redis commands and no load shedding, so that every
// answer is a 200 or a 403 (the outage test keeps the fail-fast defaults)
const PATIENT = { REDIS_TIMEOUT_MS: '5000', MAX_EVENT_LOOP_DELAY_MS: '0' }
const tally = (codes: number[]) =>
  JSON.stringify(
    codes.reduce<Record<number, number>>((a, c) => {
      a[c] = (a[c] ?? 0) + 1
      return a
    }, {})
  )

t.test('500 concurrent requests over two processes on a quota of 300: exactly 300 served', async t => {
  const redis = await TestRedis.start(t)
  const env = { REDIS_URL: redis.url, QUOTA_TEXT_DAILY: '300', ...PATIENT }
  const [a, b] = await Promise.all([replica(t, env), replica(t, env)])
  const res = await Promise.all(Array.from({ length: 500 }, (_, i) => call(i % 2 === 0 ? a : b, `text ${i}`)))
  const codes = res.map(r => r.status)
  t.equal(codes.filter(c => c === 200).length, 300, `exactly the quota (${tally(codes)})`)
  t.equal(codes.filter(c => c === 403).length, 200, 'the rest refused')
  t.equal(await used(a), 300, '/usage says 300')
  t.equal(await used(b), 300, 'on both replicas')
})

t.test('the rate limit holds across both processes', async t => {
  const redis = await TestRedis.start(t)
  const env = { REDIS_URL: redis.url, RATE_LIMIT: '0.1', ...PATIENT }
  const [a, b] = await Promise.all([replica(t, env), replica(t, env)])
  const res = await Promise.all(Array.from({ length: 40 }, (_, i) => call(i % 2 === 0 ? a : b, `text ${i}`)))
  t.equal(res.filter(r => r.status === 200).length, 1, 'one request in the 10 s window, whichever process took it')
  const limited = res.filter(r => r.status === 429)
  t.equal(limited.length, 39)
  t.ok(
    limited.every(r => Number(r.headers.get('retry-after')) >= 1),
    'each with Retry-After'
  )
})

t.test('Redis killed mid-load and restarted: nothing hangs, 503 while down, every 200 counted', async t => {
  // Redis with its append-only file, as docker-compose runs it: counts survive the restart
  const redis = await TestRedis.start(t, { persist: true })
  const env = { REDIS_URL: redis.url }
  const [a, b] = await Promise.all([replica(t, env), replica(t, env)])
  let ok = 0
  let unavailable = 0
  let other = 0
  let slowest = 0
  let afterRestart = 0
  let stop = false
  let restarted = false
  const worker = async (base: string) => {
    while (!stop) {
      const t0 = performance.now()
      const r = await call(base, 'steady load')
      slowest = Math.max(slowest, performance.now() - t0)
      if (r.status === 200) {
        ok++
        if (restarted) afterRestart++
      } else if (r.status === 503) {
        unavailable++
        if (r.headers.get('retry-after') !== '1') other++
      } else other++
      await r.arrayBuffer()
    }
  }
  const load = Promise.all([a, b, a, b].map(worker))
  await new Promise(resolve => setTimeout(resolve, 700))
  await redis.down()
  await new Promise(resolve => setTimeout(resolve, 1500))
  await redis.up()
  restarted = true
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline && afterRestart < 20) await new Promise(resolve => setTimeout(resolve, 100))
  stop = true
  await load
  t.ok(unavailable > 0, `503 while Redis was down (${unavailable})`)
  t.ok(afterRestart >= 20, `served again after the restart (${afterRestart})`)
  t.equal(other, 0, 'no other status; every 503 had Retry-After: 1')
  t.ok(slowest < 1000, `no request took a second or more (slowest ${Math.round(slowest)} ms)`)
  // charges whose reply was lost are undone in the background once Redis answers: let them settle
  let counted = await used(b)
  for (let i = 0; i < 50 && counted !== ok; i++) {
    await new Promise(resolve => setTimeout(resolve, 100))
    counted = await used(b)
  }
  t.equal(counted, ok, `every one of the ${ok} requests answered 200 is counted, and nothing else`)
})
