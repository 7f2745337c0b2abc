// Hostile requests over real sockets: 10,000 multipart parts, a 1 GB body announced by
// Content-Length, slow-loris headers and bodies. Each ends in a 4xx within its time limit, with a
// JSON body, and memory stays bounded.
import t, { type Test } from 'tap'
import { connect } from 'node:net'
import { build, KEY } from './helper.js'

type App = Awaited<ReturnType<typeof build>>

/**
 * Writes raw bytes, optionally dripping more, and resolves with the response text once the server closes or
 * answers.
 */
function raw (
  port: number,
  head: string,
  opts: { body?: Buffer; drip?: { bytes: Buffer; everyMs: number }; waitMs: number }
): Promise<{ text: string; ms: number; closed: boolean }> {
  return new Promise(resolve => {
    const t0 = performance.now()
    const socket = connect(port, '127.0.0.1')
    let text = ''
    let timer: NodeJS.Timeout | undefined
    const finish = (closed: boolean) => {
      clearInterval(timer)
      socket.destroy()
      resolve({ text, ms: performance.now() - t0, closed })
    }
    socket.on('data', d => {
      text += String(d)
    })
    socket.on('close', () => finish(true))
    socket.on('error', () => {})
    setTimeout(() => finish(false), opts.waitMs).unref()
    socket.write(head)
    if (opts.body !== undefined) socket.write(opts.body)
    if (opts.drip !== undefined) {
      let i = 0
      timer = setInterval(() => {
        if (!socket.destroyed) socket.write(opts.drip!.bytes.subarray(i, ++i))
      }, opts.drip.everyMs)
    }
  })
}

const status = (text: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1])
const requestId = (text: string) => /\r\nX-Request-Id: ([\w-]{36})\r\n/i.exec(text)?.[1]
const jsonBody = (text: string) =>
  JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { code: number; error: string; message: string }

async function listen (t: Test, env: Record<string, string> = {}): Promise<{ app: App; port: number }> {
  const app = await build(t, { env })
  await app.listen({ host: '127.0.0.1', port: 0 })
  return { app, port: (app.server.address() as { port: number }).port }
}

t.test('10,000 multipart parts: 413', async t => {
  const app = await build(t)
  const b = 'many'
  const body = Buffer.from(
    Array.from(
      { length: 10_000 },
      (_, i) => `--${b}\r\nContent-Disposition: form-data; name="text"\r\n\r\nx${i}\r\n`
    ).join('') + `--${b}--\r\n`
  )
  const res = await app.inject({
    method: 'POST',
    url: '/v4/sentiment_batch',
    headers: { 'content-type': `multipart/form-data; boundary=${b}` },
    payload: Buffer.concat([
      Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="api_key"\r\n\r\n${KEY}\r\n`),
      body
    ])
  })
  t.equal(res.statusCode, 413)
  t.match(res.json(), { code: 413, message: /too many fields or files/ })
})

t.test('a 1 GB body announced by Content-Length is refused at once, for every encoding', async t => {
  const { port } = await listen(t)
  const before = process.memoryUsage().rss
  for (const type of ['application/x-www-form-urlencoded', 'application/json', 'multipart/form-data; boundary=x']) {
    const r = await raw(
      port,
      `POST /v4/sentiment HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: 1000000000\r\n\r\n`,
      { body: Buffer.alloc(64 * 1024, 97), waitMs: 5000 }
    )
    t.equal(status(r.text), 413, `${type}: 413`)
    t.match(jsonBody(r.text), { code: 413, error: 'Payload Too Large' })
    t.ok(r.ms < 2000, `${type}: answered in ${Math.round(r.ms)} ms`)
    t.ok(r.closed, `${type}: connection closed, the rest is never read`)
  }
  t.ok(process.memoryUsage().rss - before < 200 * 1024 * 1024, 'memory bounded')
})

t.test('slow-loris: headers or body dripping in end in a JSON 408 within the request timeout', async t => {
  const { port } = await listen(t, { REQUEST_TIMEOUT_MS: '1500' })
  const headers = await raw(port, 'POST /v4/sentiment HTTP/1.1\r\nHost: x\r\n', {
    drip: { bytes: Buffer.from('X-Slow: ' + 'a'.repeat(200)), everyMs: 100 },
    waitMs: 8000
  })
  t.equal(status(headers.text), 408, 'slow headers')
  t.ok(requestId(headers.text), "Node's own 408 has a request id")
  t.ok(headers.ms < 4000, `after ${Math.round(headers.ms)} ms`)
  const body = 'api_key=' + KEY + '&text=' + 'slow '.repeat(200)
  const r = await raw(
    port,
    'POST /v4/sentiment HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ' +
      `${body.length}\r\n\r\n`,
    { drip: { bytes: Buffer.from(body), everyMs: 100 }, waitMs: 8000 }
  )
  t.equal(status(r.text), 408, 'slow body')
  t.match(jsonBody(r.text), { code: 408, error: 'Request Timeout', message: /not received in time/ })
  t.ok(r.ms < 4000, `after ${Math.round(r.ms)} ms`)
  t.ok(r.closed)
  t.ok(requestId(r.text), "so has the slow body's")
})

t.test('headers over the limit: a JSON 431 with a request id', async t => {
  const { port } = await listen(t)
  const head = `POST /v4/sentiment HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`
  const r = await raw(port, head, { waitMs: 3000 })
  t.equal(status(r.text), 431)
  t.match(jsonBody(r.text), { code: 431, message: /headers are too large/ })
  t.ok(requestId(r.text))
})

t.test('garbage instead of HTTP: a JSON 400 and the connection closed', async t => {
  const { port } = await listen(t)
  const r = await raw(port, 'HELLO THERE\r\n\r\n', { waitMs: 3000 })
  t.equal(status(r.text), 400)
  t.match(jsonBody(r.text), { code: 400 })
  t.ok(requestId(r.text))
})
