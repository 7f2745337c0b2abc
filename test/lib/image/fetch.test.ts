// The image fetcher against real local https servers (a certificate made here, never committed):
// hostile addresses are refused before any request reaches a server; the happy path, redirects,
// size and time caps behave.
import t from 'tap'
import https from 'node:https'
import type { LookupAddress } from 'node:dns'
import { createImageFetcher, isPublicAddress } from '../../../lib/image/fetch.js'
import { loadConfig } from '../../../lib/config.js'
import { tempDir } from '../../helper.js'
import { PORTRAIT, selfSignedCert } from '../../image-fixtures.js'

type Server = { port: number; hits: string[]; close: () => Promise<void> }

function tls (t: Tap): { key: Buffer; cert: Buffer } {
  return selfSignedCert(tempDir(t))
}
type Tap = { teardown(fn: () => unknown): void }

async function serve (
  t: Tap,
  creds: { key: Buffer; cert: Buffer },
  host: string,
  routes: (path: string, res: import('node:http').ServerResponse, port: number) => void
): Promise<Server> {
  const hits: string[] = []
  let port = 0
  const server = https.createServer(creds, (req, res) => {
    hits.push(req.url ?? '')
    routes(req.url ?? '', res, port)
  })
  await new Promise<void>(resolve => server.listen(0, host, resolve))
  port = (server.address() as { port: number }).port
  const close = () =>
    new Promise<void>(resolve => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  t.teardown(close)
  return { port, hits, close }
}

const fakeLookup = (answers: Record<string, string[]>) =>
  ((hostname: string, options: unknown, cb: (err: Error | null, a: LookupAddress[] | string, f?: number) => void) => {
    const list = answers[hostname]
    if (list === undefined) {
      cb(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), '')
      return
    }
    cb(
      null,
      list.map(address => ({ address, family: address.includes(':') ? 6 : 4 }))
    )
  }) as unknown as typeof import('node:dns').lookup

t.test('address classification', async t => {
  for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111']) t.ok(isPublicAddress(a), `${a} public`)
  for (const a of [
    '127.0.0.1',
    '10.1.2.3',
    '172.31.0.1',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.1',
    '198.18.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '2001:db8::1',
    'not an ip'
  ]) {
    t.notOk(isPublicAddress(a), `${a} refused`)
  }
})

t.test('hostile addresses are refused and no request reaches a server', async t => {
  const creds = tls(t)
  const v4 = await serve(t, creds, '127.0.0.1', (_p, res) => {
    res.end(PORTRAIT)
  })
  const v6 = await serve(t, creds, '::1', (_p, res) => {
    res.end(PORTRAIT)
  })
  const P = v4.port
  const fetch = createImageFetcher({
    maxBytes: 10 * 1024 * 1024,
    timeoutMs: 3000,
    ca: creds.cert,
    lookup: fakeLookup({
      'evil.test': ['127.0.0.1'],
      'mixed.test': ['127.0.0.1', '10.1.1.1'],
      localhost: ['127.0.0.1', '::1']
    })
  })
  const realDns = createImageFetcher({ maxBytes: 10 * 1024 * 1024, timeoutMs: 3000, ca: creds.cert })
  const hostile = [
    `https://127.0.0.1:${P}/x.jpg`,
    `https://localhost:${P}/x.jpg`,
    `https://127.1:${P}/x.jpg`,
    `https://2130706433:${P}/x.jpg`,
    `https://0x7f000001:${P}/x.jpg`,
    `https://0177.0.0.1:${P}/x.jpg`,
    `https://[::1]:${v6.port}/x.jpg`,
    `https://[::ffff:127.0.0.1]:${P}/x.jpg`,
    `https://[::ffff:7f00:1]:${P}/x.jpg`,
    `https://0.0.0.0:${P}/x.jpg`,
    'https://10.0.0.1/x.jpg',
    'https://172.16.0.1/x.jpg',
    'https://192.168.1.1/x.jpg',
    'https://169.254.169.254/latest/meta-data/',
    'https://100.64.0.1/x.jpg',
    'https://224.0.0.1/x.jpg',
    'https://255.255.255.255/x.jpg',
    'https://[fe80::1]/x.jpg',
    'https://[fc00::1]/x.jpg',
    'https://[::]/x.jpg',
    'https://[64:ff9b::7f00:1]/x.jpg',
    'https://[2001:db8::1]/x.jpg',
    `https://evil.test:${P}/x.jpg`,
    `https://mixed.test:${P}/x.jpg`
  ]
  t.ok(hostile.length >= 20)
  for (const url of hostile) {
    const t0 = performance.now()
    await t.rejects(
      fetch(url),
      { code: 'SVC_URL_FETCH', statusCode: 400, message: /private, loopback or reserved/ },
      url
    )
    t.ok(performance.now() - t0 < 1000, `${url}: refused at once`)
  }
  await t.rejects(
    realDns(`https://localhost:${P}/x.jpg`),
    { code: 'SVC_URL_FETCH', message: /private, loopback or reserved/ },
    'localhost through the real resolver'
  )
  t.same(v4.hits, [], 'the IPv4 server saw no request')
  t.same(v6.hits, [], 'the IPv6 server saw no request')
  await t.rejects(fetch(`http://127.0.0.1:${P}/x.jpg`), { code: 'SVC_URL_NOT_HTTPS', statusCode: 400 })
  await t.rejects(fetch('ftp://example.com/x.jpg'), { code: 'SVC_URL_NOT_HTTPS' })
  await t.rejects(fetch('https://user:secret@evil.test/x.jpg'), { code: 'SVC_URL_FETCH', message: /credentials/ })
})

t.test('with an allow-listed host: the image, redirects rechecked, size and time caps', async t => {
  const creds = tls(t)
  const big = Buffer.alloc(3 * 1024 * 1024, 7)
  const srv = await serve(t, creds, '127.0.0.1', (path, res, port) => {
    const go = (to: string) => {
      res.writeHead(302, { location: to })
      res.end()
    }
    if (path === '/img.jpg') res.end(PORTRAIT)
    else if (path === '/r1') go('/r2')
    else if (path === '/r2') go(`https://localhost:${port}/img.jpg`)
    else if (path.startsWith('/loop')) go(`/loop${path.length}`)
    else if (path === '/to-http') go(`http://localhost:${port}/img.jpg`)
    else if (path === '/to-ip') go(`https://127.0.0.1:${port}/img.jpg`)
    else if (path === '/to-metadata') go('https://169.254.169.254/latest/meta-data/')
    else if (path === '/big') {
      res.writeHead(200)
      res.end(big)
    } else if (path === '/big-announced') {
      res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) })
      res.write(Buffer.alloc(1000))
    } else if (path === '/silent') {
      /* never answers */
    } else {
      res.writeHead(404)
      res.end()
    }
  })
  const base = `https://localhost:${srv.port}`
  const fetch = createImageFetcher({
    maxBytes: 1024 * 1024,
    timeoutMs: 1500,
    ca: creds.cert,
    allowHosts: ['localhost'],
    lookup: fakeLookup({ localhost: ['127.0.0.1'] })
  })
  const img = await fetch(`${base}/img.jpg`)
  t.ok(img.equals(PORTRAIT), 'the bytes, unchanged')
  t.ok((await fetch(`${base}/r1`)).equals(PORTRAIT), 'two redirects followed')
  await t.rejects(fetch(`${base}/loop`), { code: 'SVC_URL_FETCH', message: /too many redirects \(more than 3\)/ })
  await t.rejects(fetch(`${base}/to-http`), { code: 'SVC_URL_NOT_HTTPS' }, 'a redirect to http')
  const hitsBefore = srv.hits.filter(h => h === '/img.jpg').length
  await t.rejects(
    fetch(`${base}/to-ip`),
    { code: 'SVC_URL_FETCH', message: /private/ },
    'a redirect to a literal loopback address (not on the list)'
  )
  await t.rejects(
    fetch(`${base}/to-metadata`),
    { code: 'SVC_URL_FETCH', message: /private/ },
    'a redirect to cloud metadata'
  )
  t.equal(srv.hits.filter(h => h === '/img.jpg').length, hitsBefore, 'the redirect targets were not requested')
  await t.rejects(fetch(`${base}/big`), { code: 'SVC_IMAGE_TOO_LARGE', statusCode: 413 }, 'a body over the cap')
  await t.rejects(fetch(`${base}/big-announced`), { code: 'SVC_IMAGE_TOO_LARGE' }, 'a Content-Length over the cap')
  await t.rejects(fetch(`${base}/nothing`), { code: 'SVC_URL_FETCH', message: /answered 404/ })
  const t0 = performance.now()
  await t.rejects(fetch(`${base}/silent`), { code: 'SVC_URL_FETCH', message: /timed out/ })
  t.ok(performance.now() - t0 < 2500, `timed out in ${Math.round(performance.now() - t0)} ms`)
  await t.rejects(
    createImageFetcher({
      maxBytes: 1e6,
      timeoutMs: 1500,
      allowHosts: ['localhost'],
      lookup: fakeLookup({ localhost: ['127.0.0.1'] })
    })(`${base}/img.jpg`),
    { message: /certificate/ },
    'an untrusted certificate'
  )
})

t.test('settings from the environment (read by lib/config.ts only)', async t => {
  const pick = (c: ReturnType<typeof loadConfig>) => ({
    maxBytes: c.imageMaxBytes,
    timeoutMs: c.imageFetchTimeoutMs,
    allowHosts: c.imageFetchAllowHosts
  })
  t.same(pick(loadConfig({})), { maxBytes: 10 * 1024 * 1024, timeoutMs: 10_000, allowHosts: [] })
  t.same(
    pick(
      loadConfig({
        IMAGE_FETCH_ALLOW_HOSTS: 'Images.Internal, 10.0.0.5',
        IMAGE_FETCH_TIMEOUT_MS: '2000',
        IMAGE_MAX_BYTES: '5'
      })
    ),
    { maxBytes: 5, timeoutMs: 2000, allowHosts: ['images.internal', '10.0.0.5'] }
  )
})
