// The text worker pool when things go wrong: a dead worker fails only its own job and is replaced, a full
// queue sheds load with a JSON 503, a model a worker cannot load fails start-up, and the event loop keeps
// answering while a large batch is inferred.
import t from 'tap'
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build, buildWithRealModels, FIXTURES, form, FORM, hasRealModel, KEY, tempDir } from '../../../helper.js'
import { ModelRegistry } from '../../../../lib/serving/registry.js'
import { CRASH, SLOW } from './pool-fixture.js'
import { ctx, quiet } from './pool-setup.js'

t.test('a worker that dies fails only its own job, as a JSON 500, and is replaced', async t => {
  const app = await build(t, { env: { TEXT_WORKERS: '2', MICROBATCH_WAIT_MS: '0' } })
  const pool = app.models.textPool!
  t.equal(pool.stats().workers, 2)
  const send = (text: string) =>
    app.inject({ method: 'POST', url: '/v4/sentiment', headers: FORM, payload: form({ api_key: KEY, text }) })
  const jobs = pool.jobs
  const [crashed, ...others] = await Promise.all([
    send(CRASH),
    ...Array.from({ length: 6 }, (_, i) => send(`fine words ${i}`))
  ])
  t.equal(crashed!.statusCode, 500)
  t.match(crashed!.json(), { code: 500, message: /Internal error/ })
  t.same(
    others.map(r => r.statusCode),
    [200, 200, 200, 200, 200, 200],
    'the other requests are answered'
  )
  // the seven travelled as one batch: after the crash each ran again alone, and the bad one
  // stopped a second worker
  // (seven jobs sent apart would make seven messages; a waiting message of a stopped worker is sent again)
  t.ok(pool.jobs - jobs >= 1 + 7, 'one batch, then each of its seven jobs alone')
  while (pool.replaced < 2) await new Promise(resolve => setTimeout(resolve, 20))
  t.equal(pool.stats().workers, 2, 'back to two workers')
  t.equal((await send('after the crash')).statusCode, 200)
  // a thread stopped from outside while it runs a job: the same
  const slow = send(SLOW)
  while (pool.stats().busy === 0) await new Promise(resolve => setImmediate(resolve))
  const busy = pool.threads()
  const replaced = pool.replaced
  await Promise.all(busy.map(w => w.terminate()))
  t.equal((await slow).statusCode, 500)
  while (pool.replaced < replaced + busy.length) await new Promise(resolve => setTimeout(resolve, 20))
  t.equal((await send('and after that')).statusCode, 200)
})

t.test('a full text queue answers 503 JSON with Retry-After; the admitted requests are served', async t => {
  const app = await build(t, {
    env: { TEXT_WORKERS: '1', TEXT_QUEUE: '2', MICROBATCH_WAIT_MS: '0', MAX_EVENT_LOOP_DELAY_MS: '0' }
  })
  const pool = app.models.textPool!
  const send = (text: string) =>
    app.inject({ method: 'POST', url: '/v4/sentiment', headers: FORM, payload: form({ api_key: KEY, text }) })
  const slow = send(SLOW)
  while (pool.stats().busy === 0) await new Promise(resolve => setImmediate(resolve))
  const res = await Promise.all(Array.from({ length: 6 }, (_, i) => send(`words number ${i}`)))
  const shed = res.filter(r => r.statusCode === 503)
  t.equal((await slow).statusCode, 200)
  t.equal(res.filter(r => r.statusCode === 200).length, 2, 'two waited in the queue and were served')
  t.equal(shed.length, 4, 'the rest were shed')
  for (const r of shed) {
    t.equal(r.headers['retry-after'], '1')
    t.match(r.headers['content-type'], /application\/json/)
    t.match(r.json(), { code: 503, error: 'Service Unavailable', message: /busy; retry shortly/ })
  }
  t.equal((await send('the queue is empty again')).statusCode, 200)
})

t.test('a model that a worker cannot load fails start-up, naming it; no worker is left running', async t => {
  const store = tempDir(t)
  cpSync(join(FIXTURES, 'sentiment'), join(store, 'sentiment'), { recursive: true })
  cpSync(join(FIXTURES, 'sentiment'), join(store, 'broken'), { recursive: true })
  const manifest = join(store, 'broken', '1', 'manifest.json')
  writeFileSync(manifest, JSON.stringify({ ...JSON.parse(readFileSync(manifest, 'utf8')), name: 'broken' }))
  const registry = new ModelRegistry()
  await t.rejects(
    registry.loadAll(store, quiet, ctx, { workers: 2, queue: 10 }),
    /model broken v1 failed to load or warm up in a text worker: this fixture refuses/
  )
  t.equal(registry.textPool, null)
  await t.rejects(
    build(t, { env: { MODEL_STORE: store, TEXT_WORKERS: '1' } }),
    /model broken v1 failed to load/,
    'the app does not start'
  )
  // the main thread can load it: the failure above was the worker's
  const onMain = new ModelRegistry()
  await onMain.loadAll(store, quiet, ctx)
  t.ok(onMain.get('broken'))
  await onMain.close()
})

t.test(
  'a batch of 1000 texts leaves the event loop free: /health/live answers meanwhile',
  { skip: hasRealModel('sentiment') ? false : 'model missing' },
  async t => {
    const app = await buildWithRealModels(t, ['sentiment'], {
      env: { TEXT_WORKERS: '1', MAX_EVENT_LOOP_DELAY_MS: '0' }
    })
    const texts = Array.from(
      { length: 1000 },
      (_, i) =>
        `text ${i}: ` +
        'the quick brown fox jumps over the lazy dog and it was wonderful, or maybe terrible '.repeat(24)
    )
    let done = false
    const batch = app
      .inject({
        method: 'POST',
        url: '/v4/sentiment_batch',
        headers: FORM,
        payload: form({ api_key: KEY, text: JSON.stringify(texts) })
      })
      .finally(() => {
        done = true
      })
    let answered = 0
    let worst = 0
    const statuses = new Set<number>()
    // polled as a health checker would, a few ms apart: a tight loop would only compete for the CPU
    while (!done) {
      const t0 = performance.now()
      const live = await app.inject({ method: 'GET', url: '/health/live' })
      worst = Math.max(worst, performance.now() - t0)
      statuses.add(live.statusCode)
      if (!done) answered++
      await new Promise(resolve => setTimeout(resolve, 10))
    }
    t.same([...statuses], [200])
    const res = await batch
    t.equal(res.statusCode, 200)
    t.equal(res.json().sentiment.length, 1000)
    t.ok(answered >= 3, `/health/live answered ${answered} times during the batch`)
    t.comment(`slowest /health/live during the batch: ${worst.toFixed(1)} ms`)
  }
)
