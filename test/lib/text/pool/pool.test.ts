// The text worker pool: the same answers as the main thread, a dead worker fails only its own job
// and is replaced, a full queue sheds load with a JSON 503, a model a worker cannot load fails
// start-up, and the event loop keeps answering while a large batch is inferred.
import t, { type Test } from 'tap'
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build, buildWithRealModels, FIXTURES, form, FORM, hasRealModel, KEY, tempDir } from '../../../helper.js'
import { ModelRegistry, registerLoader, scanStore } from '../../../../lib/serving/registry.js'
import { CRASH, POOL_FIXTURE, poolFixtureLoader, SHARED_PROBE, sharedProbeLoader, SLOW } from './pool-fixture.js'

// the fixture kind runs in the workers from here on (helper.ts registered it main-thread only)
registerLoader('fixture', poolFixtureLoader, POOL_FIXTURE)
registerLoader('shared-probe', sharedProbeLoader, SHARED_PROBE)

const quiet = () => {}
const ctx = { imageMaxPixels: 1_000_000 }
const TEXTS = [
  'I love it!',
  'Stocks fell sharply today.',
  'why is my order late??',
  '😀😀😀',
  'x',
  'word '.repeat(20_000),
  ...Array.from(
    { length: 300 },
    (_, i) => `review ${i}: the service was ${['great', 'awful', 'fine'][i % 3]} and the food ${i % 2 ? 'cold' : 'hot'}`
  )
]

async function registries (t: Test, store: string, workers = 2) {
  const pooled = new ModelRegistry()
  const main = new ModelRegistry()
  t.teardown(() => Promise.all([pooled.close(), main.close()]))
  await pooled.loadAll(store, quiet, ctx, { workers, queue: 100_000 })
  await main.loadAll(store, quiet, ctx)
  t.ok(pooled.textPool !== null, 'the pool runs')
  t.ok(pooled.textPool?.bundled, 'its workers run the bundled JS, without the tsx loader')
  t.equal(main.textPool, null, 'TEXT_WORKERS=0: no pool')
  return { pooled, main }
}

t.test('the pool answers what the main thread answers: batch and single, every fixture kind', async t => {
  const { pooled, main } = await registries(t, FIXTURES)
  const inputs: Record<string, unknown[]> = {
    ner: TEXTS.slice(0, 20).map(text => ({ text: text + ' Alice Smith', lang: 'en' })),
    keywords: TEXTS.slice(0, 20).map(text => ({ text, lang: 'en' })),
    similarity: TEXTS.slice(0, 20).map((a, i) => ({ a, b: TEXTS[i + 1], lang: 'en' }))
  }
  for (const info of await scanStore(FIXTURES)) {
    const batch = inputs[info.name] ?? TEXTS
    const p = pooled.get<unknown, unknown>(info.name)!
    const m = main.get<unknown, unknown>(info.name)!
    t.same(await p.predict(batch), await m.predict(batch), `${info.name}: a batch of ${batch.length}`)
    const singles = await Promise.all(batch.slice(0, 10).map(x => p.predict([x])))
    t.same(singles, await Promise.all(batch.slice(0, 10).map(x => m.predict([x]))), `${info.name}: concurrent singles`)
  }
})

t.test(
  'real text classifiers: the pool answers exactly the main-thread rows; worker tensors stay flat',
  { skip: hasRealModel('sentiment') ? false : 'model missing' },
  async t => {
    const store = tempDir(t)
    const names = (await scanStore(join(import.meta.dirname, '..', '..', '..', '..', 'model-store')))
      .filter(i => i.manifest.kind === 'text-classifier')
      .map(i => i.name)
      .slice(0, 3)
    // and the shared word-vector table the classifiers read
    for (const n of [...names, 'word-vectors']) {
      cpSync(join(import.meta.dirname, '..', '..', '..', '..', 'model-store', n), join(store, n), { recursive: true })
    }
    const { pooled, main } = await registries(t, store)
    const before = pooled.textPool!.stats().tensors
    for (const n of names) {
      t.same(await pooled.get(n)!.predict(TEXTS), await main.get(n)!.predict(TEXTS), `${n}: batch of ${TEXTS.length}`)
      const singles = await Promise.all(TEXTS.slice(0, 8).map(x => pooled.get(n)!.predict([x])))
      t.same(
        singles,
        await Promise.all(TEXTS.slice(0, 8).map(x => main.get(n)!.predict([x]))),
        `${n}: concurrent singles`
      )
    }
    t.same(pooled.textPool!.stats().tensors, before, 'no tensor left behind in the workers')
    const jobs = pooled.textPool!.jobs
    await Promise.all(TEXTS.slice(0, 10).map(x => pooled.get(names[0]!)!.predict([x])))
    t.equal(pooled.textPool!.jobs - jobs, 1, 'concurrent single texts travel to a worker as one micro-batch')
    const big = Array.from({ length: 1000 }, (_, i) => TEXTS[i % TEXTS.length]!)
    t.same(
      await pooled.get(names[0]!)!.predict(big),
      await main.get(names[0]!)!.predict(big),
      'a batch of 1000, cut into chunks'
    )
    t.ok(pooled.textPool!.jobs - jobs > 2, 'spread over several jobs')
  }
)

const SHARED_MODELS = ['sentiment', 'emotion-multilingual', 'ner', 'custom_classifier', 'word-vectors']
const sharedTitle =
  'embedding tables, text-cnn weights, word vectors and NER weights: one copy per process, ' +
  'read by every worker, the same answers'
t.test(sharedTitle, { skip: SHARED_MODELS.every(hasRealModel) ? false : 'models missing' }, async t => {
  const store = tempDir(t)
  const real = join(import.meta.dirname, '..', '..', '..', '..', 'model-store')
  for (const n of SHARED_MODELS) symlinkSync(join(real, n), join(store, n), 'dir')
  // a probe model that reports where its thread finds a shared array
  mkdirSync(join(store, 'probe', '1'), { recursive: true })
  const manifest = JSON.parse(readFileSync(join(FIXTURES, 'sentiment', '1', 'manifest.json'), 'utf8')) as Record<
    string,
    unknown
  >
  writeFileSync(
    join(store, 'probe', '1', 'manifest.json'),
    JSON.stringify({ ...manifest, name: 'probe', kind: 'shared-probe' })
  )
  const { pooled, main } = await registries(t, store)
  const arrays = [
    ['sentiment', 'weights'],
    ['emotion-multilingual', 'embeddings.float16'],
    ['word-vectors', 'vectors'],
    ['word-vectors', 'vocab.slots'],
    ['ner', 'weights']
  ]
  const probes = arrays.map(([m, name]) => `${join(store, m!, '1')}|${name}`)
  t.same(
    await pooled.get('probe')!.predict(probes),
    probes.map(() => 'SharedArrayBuffer'),
    "workers read the process's copies"
  )
  t.same(
    await main.get('probe')!.predict(probes),
    probes.map(() => 'ArrayBuffer'),
    'TEXT_WORKERS=0: the thread makes its own'
  )
  const texts = TEXTS.slice(0, 40)
  const inputs: Record<string, unknown[]> = {
    ner: ['Angela Merkel met Emmanuel Macron in Paris.', 'Apple opened a store in Berlin.', ...texts].flatMap(text =>
      ['en', 'de'].map(lang => ({ text, lang }))
    ),
    sentiment: texts,
    'emotion-multilingual': texts,
    custom_classifier: texts.map(text => ({
      text,
      labels: [
        { name: 'food', keywords: [] },
        { name: 'sport', keywords: ['football'] },
        { name: 'money', keywords: [] }
      ]
    }))
  }
  for (const [name, batch] of Object.entries(inputs)) {
    t.same(
      await pooled.get<unknown, unknown>(name)!.predict(batch),
      await main.get<unknown, unknown>(name)!.predict(batch),
      `${name}: a batch of ${batch.length}`
    )
  }
})

t.test('with no timed wait, texts that queue together travel as one batch, in order', async t => {
  const pooled = new ModelRegistry()
  const main = new ModelRegistry()
  t.teardown(() => Promise.all([pooled.close(), main.close()]))
  await pooled.loadAll(FIXTURES, quiet, ctx, { workers: 1, queue: 100_000 })
  await main.loadAll(FIXTURES, quiet, ctx)
  const pool = pooled.textPool!
  const p = pooled.get<unknown, unknown>('sentiment')!
  const m = main.get<unknown, unknown>('sentiment')!
  const texts = TEXTS.slice(6, 36)
  let jobs = pool.jobs
  const singles = await Promise.all(texts.map(x => p.predict([x])))
  t.same(singles, await Promise.all(texts.map(x => m.predict([x]))), 'each caller gets its own row')
  t.equal(pool.jobs - jobs, 1, 'thirty single texts of one event-loop turn: one message')
  // while the worker is busy, what arrives waits and then goes together
  jobs = pool.jobs
  const slow = p.predict([SLOW])
  await new Promise(resolve => setImmediate(resolve))
  const later = []
  for (const x of texts) {
    later.push(p.predict([x]))
    await new Promise(resolve => setImmediate(resolve))
  }
  t.same(await Promise.all(later), singles, 'the same rows, in order')
  await slow
  t.ok(pool.jobs - jobs <= 3, `thirty texts sent over ${pool.jobs - jobs - 1} messages behind a busy worker`)
})

t.test('a single text does not wait behind the remaining chunks of a large batch', async t => {
  const pooled = new ModelRegistry()
  t.teardown(() => pooled.close())
  await pooled.loadAll(FIXTURES, quiet, ctx, { workers: 1, queue: 100_000 })
  const pool = pooled.textPool!
  const p = pooled.get<unknown, unknown>('sentiment')!
  // 1000 texts travel as 4 chunks of 256; each chunk after the first holds one slow text (400 ms)
  const big = Array.from({ length: 1000 }, (_, i) => (i === 300 || i === 600 || i === 900 ? SLOW : `text ${i}`))
  let bigDone = false
  const batch = p.predict(big).then(rows => {
    bigDone = true
    return rows
  })
  // the worker takes chunks 1 and 2; the single goes next, before chunks 3 and 4 (FIFO would put it last)
  while (pool.stats().busy === 0) await new Promise(resolve => setImmediate(resolve))
  const single = await p.predict(['just one text'])
  t.equal(single.length, 1)
  t.notOk(bigDone, 'answered before the batch')
  t.equal(pool.stats().busy, 1, "while the worker still runs the batch's slow chunks")
  t.equal((await batch).length, 1000, 'the batch is answered in full')
})

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
