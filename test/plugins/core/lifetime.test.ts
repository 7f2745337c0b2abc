// Every answer carries X-Request-Id, and every request has a deadline (REQUEST_TIMEOUT_MS): work
// that outlasts it is answered with a JSON 503 and Retry-After, refunded, logged, and dropped from
// the pools; the socket stays open until then.
import t from 'tap'
import https from 'node:https'
import { Writable } from 'node:stream'
import type { Socket } from 'node:net'
import { build, buildWithRealModels, form, FORM, hasRealModel, KEY, tempDir } from '../../helper.js'
import { registerLoader } from '../../../lib/serving/registry.js'
import { loadConfig } from '../../../lib/config.js'
import { serverOptions } from '../../../options.js'
import { POOL_FIXTURE, poolFixtureLoader, TICK } from '../../lib/text/pool/pool-fixture.js'
import { selfSignedCert } from '../../image-fixtures.js'

// the fixture kind runs in the text workers here
registerLoader('fixture', poolFixtureLoader, POOL_FIXTURE)

const until = async (ok: () => boolean, ms = 10_000) => {
  for (const end = Date.now() + ms; !ok() && Date.now() < end;) await new Promise(resolve => setTimeout(resolve, 20))
  return ok()
}

const outlasts = 'a batch past the deadline: 503 JSON with Retry-After, refunded, logged, its queued work dropped'
t.test(outlasts, async t => {
  const lines: string[] = []
  const stream = new Writable({
    write (chunk, _enc, cb) {
      lines.push(String(chunk))
      cb()
    }
  })
  const logger = { ...(serverOptions(loadConfig({})).logger as object), stream }
  const env = { TEXT_WORKERS: '1', REQUEST_TIMEOUT_MS: '500', QUOTA_TEXT_DAILY: '1000' }
  const app = await build(t, { env, logger })
  const pool = app.models.textPool!
  const texts = Array.from({ length: 600 }, () => TICK)
  const started = Date.now()
  const payload = form({ api_key: KEY, text: JSON.stringify(texts) })
  const res = await app.inject({ method: 'POST', url: '/v4/sentiment_batch', headers: FORM, payload })
  t.equal(res.statusCode, 503)
  t.same(Object.keys(res.json()), ['code', 'error', 'message'])
  t.match(res.json().message, /deadline of 0\.5 s; nothing was charged/)
  t.equal(res.headers['retry-after'], '1')
  t.ok(res.headers['x-request-id'], 'the answer has its request id')
  t.ok(Date.now() - started < 600 * 5, 'answered before the batch could have finished')
  // 600 texts are 3 chunks of 256 at most: one runs on, the one sent behind it is skipped, the last never sent
  t.equal(pool.stats().queued, 0, 'nothing of it waits in the queue')
  const idle = await until(() => pool.skipped === 1 && pool.stats().busy === 0)
  t.ok(idle, 'the worker skipped the chunk it held, then idled')
  t.equal(pool.jobs, 2, 'the third chunk never reached a worker')
  const usage = await app.inject({ method: 'POST', url: '/usage', headers: FORM, payload: form({ api_key: KEY }) })
  t.equal(usage.json().text.daily.used, 0, 'the 600 texts were refunded')
  const log = lines.map(l => JSON.parse(l) as { reqId?: string; code?: string; msg?: string })
  const named = log.some(l => l.reqId === res.headers['x-request-id'] && l.code === 'SVC_DEADLINE_PASSED')
  t.ok(named, 'the log names the request')
  const again = form({ api_key: KEY, text: 'fine again' })
  const after = await app.inject({ method: 'POST', url: '/v4/sentiment', headers: FORM, payload: again })
  t.equal(after.statusCode, 200, 'the next request is answered')
})

t.test('over a real socket the client gets its 503, not a closed connection', async t => {
  const app = await build(t, { env: { TEXT_WORKERS: '1', REQUEST_TIMEOUT_MS: '300' } })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as { port: number }
  const body = form({ api_key: KEY, text: JSON.stringify(Array.from({ length: 300 }, () => TICK)) })
  const res = await fetch(`http://127.0.0.1:${port}/v4/sentiment_batch`, { method: 'POST', headers: FORM, body })
  t.equal(res.status, 503)
  t.equal(((await res.json()) as { code: number }).code, 503)
})

const objects = { skip: hasRealModel('object_recognizer') ? false : 'model-store/object_recognizer missing' }
t.test('a stalled image server: 503 at the deadline, refunded, and its connection is closed', objects, async t => {
  const tls = selfSignedCert(tempDir(t))
  const sockets: Socket[] = []
  let closed = 0
  const server = https.createServer({ key: tls.key, cert: tls.cert }, () => {
    /* never answers */
  })
  server.on('secureConnection', (s: Socket) => {
    sockets.push(s)
    s.on('close', () => closed++)
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    for (const s of sockets) s.destroy()
    server.close()
  })
  const { port } = server.address() as { port: number }
  const env = {
    IMAGE_FETCH_ALLOW_HOSTS: '127.0.0.1',
    IMAGE_FETCH_CA_FILE: tls.certFile,
    REQUEST_TIMEOUT_MS: '700',
    IMAGE_FETCH_TIMEOUT_MS: '20000',
    QUOTA_IMAGE_DAILY: '10'
  }
  const app = await buildWithRealModels(t, ['object_recognizer'], { env })
  const started = Date.now()
  const payload = form({ api_key: KEY, url: `https://127.0.0.1:${port}/photo.jpg` })
  const res = await app.inject({ method: 'POST', url: '/v4/object_recognizer', headers: FORM, payload })
  t.equal(res.statusCode, 503)
  t.match(res.json().message, /deadline of 0\.7 s/)
  t.ok(res.headers['retry-after'])
  t.ok(Date.now() - started < 20_000, 'well before the fetch cap')
  t.ok(await until(() => closed === 1), 'the fetch was abandoned: its connection closed')
  const usage = await app.inject({ method: 'POST', url: '/usage', headers: FORM, payload: form({ api_key: KEY }) })
  t.equal(usage.json().image.daily.used, 0, 'refunded')
})
