// Start-up waits for the models: a model that takes longer to load and warm than Fastify's default
// plugin timeout (10 s, which a busy or slow host can pass with every model) still starts the app.
import t from 'tap'
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { registerLoader } from '../../../lib/serving/registry.js'
import { fixtureLoader } from '../../fixtures/loader.js'
import { FIXTURES, build, form, KEY, tempDir } from '../../helper.js'

registerLoader('slow-fixture', async (...args) => {
  await new Promise(resolve => setTimeout(resolve, 10_500))
  return fixtureLoader(...args)
})

t.test('a model that loads for longer than 10 s does not fail start-up', { timeout: 60_000 }, async t => {
  const store = tempDir(t)
  cpSync(join(FIXTURES, 'sentiment'), join(store, 'sentiment'), { recursive: true })
  const manifest = join(store, 'sentiment', '1', 'manifest.json')
  writeFileSync(manifest, JSON.stringify({ ...JSON.parse(readFileSync(manifest, 'utf8')), kind: 'slow-fixture' }))
  const started = Date.now()
  // on the main thread: the registered loader is a function, which a text worker cannot be handed
  const app = await build(t, { env: { MODEL_STORE: store, TEXT_WORKERS: '0' } })
  t.ok(Date.now() - started >= 10_500, `the loader ran its ${((Date.now() - started) / 1000).toFixed(1)} s`)
  const res = await app.inject({
    method: 'POST',
    url: '/v4/sentiment',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ api_key: KEY, text: 'fine' })
  })
  t.equal(res.statusCode, 200, res.body)
  t.same(Object.keys(res.json().sentiment).sort(), ['negative', 'neutral', 'positive'])
})
