// Outside the API: health, the model list, OpenAPI and docs, Prometheus metrics, the admin API.
import t from 'tap'
import { build, form, FORM, KEY } from '../../helper.js'

t.test('health: live and ready (models warmed, store answering)', async t => {
  const app = await build(t)
  const live = await app.inject({ method: 'GET', url: '/health/live' })
  t.equal(live.statusCode, 200)
  t.same(live.json(), { status: 'ok' })
  const ready = await app.inject({ method: 'GET', url: '/health/ready' })
  t.equal(ready.statusCode, 200)
  t.match(ready.json(), { status: 'ready', store: 'sqlite', backend: /wasm|tensorflow|cpu/ })
  t.ok((ready.json() as { models: string[] }).models.includes('sentiment@1'))
})

t.test('GET /v4/models lists name, version, labels, metrics and data licences', async t => {
  const app = await build(t)
  const res = await app.inject({ method: 'GET', url: '/v4/models' })
  t.equal(res.statusCode, 200)
  const body = res.json() as {
    models: Array<{ name: string; version: number; labels: string[]; metrics: unknown[]; training_data: unknown[] }>
  }
  const s = body.models.find(m => m.name === 'sentiment')
  t.match(s, { version: 1, labels: ['negative', 'neutral', 'positive'], metrics: [], training_data: [] })
  t.equal(body.models.length, 9)
})

t.test('a model that fails to load fails start-up loudly', async t => {
  const { build: b } = await import('../../helper.js')
  const { mkdirSync, writeFileSync } = await import('node:fs')
  const { join } = await import('node:path')
  const { tempDir } = await import('../../helper.js')
  const store = tempDir(t)
  mkdirSync(join(store, 'sentiment', '3'), { recursive: true })
  writeFileSync(join(store, 'sentiment', '3', 'manifest.json'), JSON.stringify({ name: 'sentiment', version: 3 }))
  await t.rejects(b(t, { env: { MODEL_STORE: store } }), /sentiment\/3\/manifest.json: invalid/)
  const store2 = tempDir(t)
  mkdirSync(join(store2, 'sentiment', '1'), { recursive: true })
  const manifest = {
    name: 'sentiment',
    version: 1,
    kind: 'no-such-kind',
    description: 'x',
    languages: ['en'],
    labels: ['negative', 'neutral', 'positive'],
    inputs: [],
    outputs: [],
    files: [],
    training: { command: 'x', data: [] },
    metrics: [],
    created: '2026-01-01T00:00:00Z'
  }
  writeFileSync(join(store2, 'sentiment', '1', 'manifest.json'), JSON.stringify(manifest))
  await t.rejects(
    b(t, { env: { MODEL_STORE: store2 } }),
    /model sentiment v1 failed to load or warm up: no loader for model kind "no-such-kind"/
  )
})

t.test('OpenAPI document from the route schemas, and the docs page', async t => {
  const app = await build(t)
  const res = await app.inject({ method: 'GET', url: '/openapi.json' })
  t.equal(res.statusCode, 200)
  const doc = res.json() as {
    openapi: string
    paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>
  }
  t.match(doc.openapi, /^3\./)
  for (const p of [
    '/v4/sentiment',
    '/v4/sentiment_batch',
    '/v4/similarity',
    '/v4/new/intent',
    '/v4/new/intent_batch',
    '/v4/facial_emotion',
    '/v3/object_recognizer',
    '/usage',
    '/v4/abuse',
    '/v4/abuse_batch',
    '/v4/target/sentiment',
    '/v4/target/sentiment_batch',
    '/v4/target_sentiment',
    '/v4/target_sentiment_batch',
    '/v4/custom_classifier',
    '/v4/phrase_extractor',
    '/v4/phrase_extractor_batch',
    '/v4/nsfw',
    '/v3/nsfw'
  ]) {
    t.ok(doc.paths[p]?.post, `${p} documented`)
  }
  t.ok(doc.paths['/v4/sentiment']?.post?.responses['429'], 'error responses documented')
  t.notOk(doc.paths['/v4/sentiment']?.get, 'the 405 catch-alls are hidden')
  const page = await app.inject({ method: 'GET', url: '/docs' })
  t.equal(page.statusCode, 200)
  t.match(page.body, /swagger-ui/)
  t.notMatch(page.body, /https?:\/\/(cdn|unpkg|cdnjs)/, 'no CDN')
  t.equal(
    (await app.inject({ method: 'GET', url: '/docs/static/swagger-ui.css' })).statusCode,
    200,
    'assets served locally'
  )
})

t.test('Prometheus metrics', async t => {
  const app = await build(t)
  await app.inject({
    method: 'POST',
    url: '/v4/sentiment_batch',
    headers: FORM,
    payload: form({ api_key: KEY, text: '["a b","c d","e f"]' })
  })
  const res = await app.inject({ method: 'GET', url: '/metrics' })
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /text\/plain/)
  t.match(res.body, /analysed_units_total\{op="sentiment"\} 3/)
  t.match(res.body, /http_request_duration_seconds_count\{method="POST",route="\/v4\/sentiment_batch",status="200"\} 1/)
  t.match(res.body, /process_resident_memory_bytes/)
})

t.test('admin API behind ADMIN_TOKEN: create, list, set plan, revoke', async t => {
  const off = await build(t)
  t.equal((await off.inject({ method: 'GET', url: '/admin/keys' })).statusCode, 404, 'disabled without ADMIN_TOKEN')
  // load shedding off: a busy shared host stalls the event loop past 1 s now and then (a 503 here)
  const app = await build(t, { env: { ADMIN_TOKEN: 'sesame-sesame', MAX_EVENT_LOOP_DELAY_MS: '0' } })
  const auth = { authorization: 'Bearer sesame-sesame' }
  const no = await app.inject({ method: 'GET', url: '/admin/keys' })
  t.equal(no.statusCode, 401)
  t.match(no.json(), { code: 401, error: 'Unauthorized', message: /admin token/ })
  t.equal(
    (await app.inject({ method: 'GET', url: '/admin/keys', headers: { authorization: 'Bearer wrong' } })).statusCode,
    401
  )
  const created = await app.inject({
    method: 'POST',
    url: '/admin/keys',
    headers: auth,
    payload: { name: 'shop', plan: { textDaily: 1 } }
  })
  t.equal(created.statusCode, 201)
  const { key, record } = created.json() as { key: string; record: { id: string; plan: { textDaily: number } } }
  t.equal(record.plan.textDaily, 1)
  const list = (await app.inject({ method: 'GET', url: '/admin/keys', headers: auth })).json() as {
    keys: Array<{ id: string }>
  }
  t.ok(list.keys.some(k => k.id === record.id))
  t.notMatch(JSON.stringify(list), key, 'the list never shows keys')
  const call = () =>
    app.inject({
      method: 'POST',
      url: '/v4/sentiment',
      headers: FORM,
      payload: form({ api_key: key, text: 'hello you' })
    })
  t.equal((await call()).statusCode, 200)
  t.equal((await call()).statusCode, 403)
  const patched = await app.inject({
    method: 'PATCH',
    url: `/admin/keys/${record.id}`,
    headers: auth,
    payload: { plan: { textDaily: 10 } }
  })
  t.equal(patched.statusCode, 200)
  await new Promise(resolve => setTimeout(resolve, 1100))
  t.equal((await call()).statusCode, 200, 'the new plan applies')
  t.equal((await app.inject({ method: 'DELETE', url: `/admin/keys/${record.id}`, headers: auth })).statusCode, 200)
  t.equal((await app.inject({ method: 'DELETE', url: `/admin/keys/${record.id}`, headers: auth })).statusCode, 404)
  await new Promise(resolve => setTimeout(resolve, 1100))
  t.equal((await call()).statusCode, 401)
  const bad = await app.inject({ method: 'POST', url: '/admin/keys', headers: auth, payload: { plan: {} } })
  t.equal(bad.statusCode, 400)
  t.match(bad.json(), { code: 400, message: /name/ })
})
