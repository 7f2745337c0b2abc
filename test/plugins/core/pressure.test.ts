// Load shedding: a lagging event loop, and a full image queue, answer a JSON 503 with Retry-After.
import t from 'tap'
import { build, buildWithRealModels, form, FORM, hasRealModel, KEY, multipart } from '../../helper.js'
import { FACES } from '../../image-fixtures.js'

t.test('an event loop lagging past MAX_EVENT_LOOP_DELAY_MS sheds new requests, not health checks', async t => {
  const app = await build(t, { env: { MAX_EVENT_LOOP_DELAY_MS: '20' } })
  const send = () =>
    app.inject({
      method: 'POST',
      url: '/v4/sentiment',
      headers: FORM,
      payload: form({ api_key: KEY, text: 'fine words' })
    })
  t.equal((await send()).statusCode, 200, 'not shed right after start-up, whatever start-up cost')
  await new Promise(resolve => setTimeout(resolve, 600))
  // the plugin samples the mean loop delay every 100 ms: stall for longer than a whole window
  let res = await send()
  for (let i = 0; i < 5 && res.statusCode !== 503; i++) {
    const until = Date.now() + 300
    while (Date.now() < until) {
      /* block the event loop */
    }
    await new Promise(resolve => setImmediate(resolve))
    res = await send()
  }
  t.equal(res.statusCode, 503)
  t.equal(res.headers['retry-after'], '1')
  t.match(res.json(), { code: 503, error: 'Service Unavailable', message: /busy; retry shortly/ })
  t.match(String(res.headers['x-request-id']), /\S/, 'a shed request has its request id too')
  t.equal((await app.inject({ method: 'GET', url: '/health/live' })).statusCode, 200, 'liveness still answers')
  // the routes that tell a client what is going on are not shed (stall again: shedding may have ended)
  const stall = () => {
    const until = Date.now() + 300
    while (Date.now() < until) {
      /* block */
    }
  }
  stall()
  await new Promise(resolve => setImmediate(resolve))
  t.equal((await send()).statusCode, 503, 'still shedding operations')
  for (const [method, url] of [
    ['POST', '/usage'],
    ['GET', '/openapi.json'],
    ['GET', '/v4/models'],
    ['GET', '/metrics']
  ] as const) {
    const r = await app.inject({
      method,
      url,
      ...(method === 'POST' ? { headers: FORM, payload: form({ api_key: KEY }) } : {})
    })
    t.equal(r.statusCode, 200, `${method} ${url} answers while shedding`)
  }
  let status = 503
  for (let i = 0; i < 30 && status === 503; i++) {
    await new Promise(resolve => setTimeout(resolve, 100))
    status = (await send()).statusCode
  }
  t.equal(status, 200, 'recovers by itself')
})

t.test(
  'a full image queue answers 503 with Retry-After',
  { skip: hasRealModel('facial_emotion') ? false : 'model missing' },
  async t => {
    const app = await buildWithRealModels(t, ['facial_emotion'], {
      env: { MAX_EVENT_LOOP_DELAY_MS: '0', IMAGE_QUEUE: '1' }
    })
    const res = await Promise.all(
      Array.from({ length: 8 }, () =>
        app.inject({
          method: 'POST',
          url: '/v4/facial_emotion',
          ...multipart([
            { name: 'api_key', value: KEY },
            { name: 'file', value: FACES, filename: 'file' }
          ])
        })
      )
    )
    const shed = res.filter(r => r.statusCode === 503)
    t.ok(
      res.some(r => r.statusCode === 200),
      'some served'
    )
    t.ok(shed.length > 0, `some shed (${shed.length} of 8)`)
    for (const r of shed) {
      t.equal(r.headers['retry-after'], '1')
      t.match(r.json(), { code: 503, message: /busy/ })
    }
  }
)

t.test('the default event-loop threshold sheds a stall, not an ordinarily busy machine', async t => {
  const { loadConfig } = await import('../../../lib/config.js')
  t.equal(
    loadConfig({}).maxEventLoopDelayMs,
    3000,
    'a mean delay of 1 s (seen on busy shared hosts) is not shed by default'
  )
})
