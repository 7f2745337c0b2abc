// The text worker pool answers what the main thread answers: every fixture kind, real text classifiers,
// the shared copies of large weights every worker reads, and micro-batches (texts that queue together
// travel as one batch, in order; a single text goes ahead of a large batch's remaining chunks).
import t, { type Test } from 'tap'
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { FIXTURES, hasRealModel, tempDir } from '../../../helper.js'
import { ModelRegistry, scanStore } from '../../../../lib/serving/registry.js'
import { SLOW } from './pool-fixture.js'
import { ctx, quiet } from './pool-setup.js'

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

const SHARED_MODELS = ['sentiment', 'target_sentiment', 'ner', 'custom_classifier', 'word-vectors']
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
    ['target_sentiment', 'embeddings.float16'],
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
    target_sentiment: texts,
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
