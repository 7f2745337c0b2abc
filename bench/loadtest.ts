// [WEB_CONCURRENCY=N] npm run loadtest [-- --url http://host:port --key KEY] [--duration 10] [--json results.json] [--only a,b]
//                  [--redis [redis://host:port]] [--origin https://app.example]
// Starts the service on the embedded store (unless --url), drives every operation with the bodies
// real clients send, and prints per endpoint: requests/s, texts or images/s, p50/p90/p99 latency,
// errors, and the service's peak memory; a bare Fastify route on the same settings is the ceiling.
// With REDIS_URL or --redis URL (or a bare --redis: a throwaway redis-server on a free port), a
// second service on the Redis store is driven on the text endpoints too, each row next to its
// embedded-store twin, so that the cost of the Redis quota and rate-limit path shows.
import autocannon from 'autocannon'
import { Redis } from 'ioredis'
import { tmpdir } from 'node:os'
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createRequire } from 'node:module'
import sharp from 'sharp'
import { ALLOCATOR_ENV } from '../lib/config.js'

// a bare --redis (last, or followed by another option) asks for a throwaway redis-server
const argv = process.argv.slice(2)
const flag = argv.indexOf('--redis')
if (flag !== -1 && (argv[flag + 1] === undefined || argv[flag + 1]!.startsWith('--'))) argv.splice(flag + 1, 0, 'start')
const { values: args } = parseArgs({
  args: argv,
  options: {
    url: { type: 'string' },
    key: { type: 'string' },
    duration: { type: 'string', default: '10' },
    json: { type: 'string' },
    only: { type: 'string' },
    redis: { type: 'string' },
    // sent as the Origin header of every request, as a browser page would (with CORS_ORIGINS set,
    // the service then answers with the CORS headers: docs/security.md)
    origin: { type: 'string' }
  }
})
const DURATION = Number(args.duration)
const root = join(import.meta.dirname, '..')
const KEY = args.key ?? 'loadtest-key-0000000000000000'

async function freePort (): Promise<number> {
  return new Promise(resolve => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port
      s.close(() => resolve(p))
    })
  })
}

async function start (script: string, env: Record<string, string>): Promise<{ proc: ChildProcess; url: string }> {
  const port = await freePort()
  // the store is chosen here, not inherited: REDIS_URL from the caller names the Redis run's store
  const { REDIS_URL: _, ...inherited } = process.env
  const proc = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: { ...ALLOCATOR_ENV, ...inherited, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit']
  })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}/health/ready`)).status < 500 || script.includes('bare')) {
        const r = await fetch(`${url}/health/live`).catch(() => null)
        if (r !== null || script.includes('bare')) break
      }
    } catch {}
    await new Promise(resolve => setTimeout(resolve, 200))
  }
  return { proc, url }
}

// the service's peak RSS: its own, plus its HTTP processes' under WEB_CONCURRENCY (text workers are
// threads, counted in their process)
function peakRssMb (pid: number | undefined): number | null {
  if (pid === undefined) return null
  let kb = 0
  for (const p of [pid, ...descendants(pid)]) {
    try {
      kb += Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0)
    } catch {}
  }
  return kb === 0 ? null : Math.round(kb / 1024)
}

function descendants (pid: number): number[] {
  const out: number[] = []
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8')
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) {
        out.push(Number(d), ...descendants(Number(d)))
      }
    } catch {}
  }
  return out
}

function form (fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString()
}
function multipart (fields: Record<string, string>, file?: Buffer): { body: Buffer; type: string } {
  const b = 'loadtestboundary'
  const parts: Buffer[] = []
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`))
  }
  if (file !== undefined) {
    parts.push(
      Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="file"; filename="file"\r\n\r\n`),
      file,
      Buffer.from('\r\n')
    )
  }
  parts.push(Buffer.from(`--${b}--\r\n`))
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${b}` }
}

interface Row {
  name: string
  reqPerSec: number
  unitsPerSec: number
  p50: number
  p90: number
  p99: number
  errors: number
  ratio?: number
  store?: 'embedded' | 'redis'
}

/** A throwaway redis-server on a free port, without persistence; null if it is not installed. */
async function startRedis (): Promise<{ proc: ChildProcess; url: string } | null> {
  const port = await freePort()
  // nothing is written to disk: no snapshots, no append-only file
  const proc = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { cwd: tmpdir(), stdio: 'ignore' }
  )
  const missing = new Promise<null>(resolve => proc.once('error', () => resolve(null)))
  const url = `redis://127.0.0.1:${port}`
  const ready = (async () => {
    for (let i = 0; i < 100; i++) {
      const c = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 })
      c.on('error', () => {})
      try {
        await c.connect()
        await c.ping()
        return { proc, url }
      } catch {
      } finally {
        c.disconnect()
      }
      await new Promise(resolve => setTimeout(resolve, 50))
    }
    return null
  })()
  return Promise.race([ready, missing])
}

async function drive (
  name: string,
  url: string,
  opts: { body: string | Buffer; type: string; units: number; connections: number; path: string }
): Promise<Row> {
  const headers = { 'content-type': opts.type, ...(args.origin === undefined ? {} : { origin: args.origin }) }
  const r = await autocannon({
    url: url + opts.path,
    method: 'POST',
    headers,
    body: opts.body,
    connections: opts.connections,
    duration: DURATION
  })
  const lat = r.latency as unknown as Record<string, number>
  return {
    name,
    reqPerSec: r.requests.average,
    unitsPerSec: r.requests.average * opts.units,
    p50: lat.p50 ?? 0,
    p90: lat.p90 ?? 0,
    p99: lat.p99 ?? 0,
    errors: r.errors + r.non2xx + r.timeouts
  }
}

/** /health/live latency sampled while `load` runs. */
async function liveWhile (
  url: string,
  load: Promise<unknown>
): Promise<{ p50: number; p99: number; max: number; n: number }> {
  const times: number[] = []
  let done = false
  void load.finally(() => {
    done = true
  })
  while (!done) {
    const t0 = performance.now()
    await fetch(`${url}/health/live`)
    times.push(performance.now() - t0)
    await new Promise(resolve => setTimeout(resolve, 20))
  }
  times.sort((a, b) => a - b)
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0
  return { p50: q(0.5), p99: q(0.99), max: times.at(-1) ?? 0, n: times.length }
}

const procs: ChildProcess[] = []
process.on('exit', () => {
  for (const p of procs) p.kill('SIGKILL')
})

// Quotas and a rate that are checked on every request but never reached, so that both stores run
// their whole metering path.
const PLAN = {
  RATE_LIMIT: '1000000',
  QUOTA_TEXT_DAILY: '1000000000000',
  QUOTA_TEXT_MONTHLY: '1000000000000',
  QUOTA_IMAGE_DAILY: '1000000000000',
  QUOTA_IMAGE_MONTHLY: '1000000000000'
}
let service = args.url
let servicePid: number | undefined
let redisService: string | undefined
let redisPid: number | undefined
let redisUrl = args.redis ?? process.env.REDIS_URL
if (service === undefined) {
  const env: Record<string, string> = { API_KEYS: KEY, DATA_DIR: join(root, 'data', 'loadtest'), ...PLAN }
  const s = await start('server.ts', env)
  procs.push(s.proc)
  service = s.url
  servicePid = s.proc.pid
  if (redisUrl === 'start') {
    const r = await startRedis()
    if (r === null) {
      throw new Error('--redis: redis-server did not start (is it installed? apt-get install -y redis-server)')
    }
    procs.push(r.proc)
    redisUrl = r.url
  }
  if (redisUrl !== undefined) {
    const rs = await start('server.ts', { ...env, REDIS_URL: redisUrl })
    procs.push(rs.proc)
    redisService = rs.url
    redisPid = rs.proc.pid
  }
} else if (redisUrl !== undefined) {
  process.stderr.write('--url given: the Redis rows need a service started here; leaving them out\n')
}
const bare = await start('bench/bare.ts', {})
procs.push(bare.proc)

const require = createRequire(import.meta.url)
const portrait = readFileSync(join(require.resolve('paralleldots'), '..', 'image-file.jpg'))
const img = async (w: number) => sharp(portrait).resize({ width: w }).jpeg({ quality: 85 }).toBuffer()
const short = (i: number) =>
  ['great phone, love it', 'worst service ever', 'the meeting is at noon', 'what a lovely day', 'not sure about this'][
    i % 5
  ] as string
const batch = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => short(i)))

const NER_TEXT = 'Angela Merkel met Emmanuel Macron in Paris on Tuesday.'
const nerBatch = (n: number) =>
  JSON.stringify(Array.from({ length: n }, (_, i) => (i % 2 === 0 ? NER_TEXT : `${short(i)} in London with Google`)))
const ABSTRACT =
  'We present a neural network approach to image classification. Convolutional neural networks are trained on a large image dataset, and the classification accuracy is compared with support vector machines.'

const only = args.only?.split(',')
const want = (n: string) => only === undefined || only.some(o => n.includes(o))
const rows: Row[] = []
const say = (r: Row) => {
  rows.push(r)
  process.stderr.write(`  ${r.name}: ${r.reqPerSec.toFixed(0)} req/s, p50 ${r.p50} ms\n`)
}

// rows reported as a share of the ceiling: the ceiling is measured before them and again after them,
// and they are divided by the mean of the two (on a shared host it moves by a third between runs)
const relative: Row[] = []
// the bare route and this process's autocannon first run 2 s that are not reported, as the service does
// below, so that both sides are measured warm (measured cold, in three runs the first ceiling came out
// 21-33% under the one taken after the rows)
await autocannon({
  url: bare.url + '/bare',
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: form({ api_key: KEY, text: short(0) }),
  connections: 10,
  duration: 2
})
const ceiling = await drive('bare Fastify route (ceiling)', bare.url, {
  path: '/bare',
  body: form({ api_key: KEY, text: short(0) }),
  type: 'application/x-www-form-urlencoded',
  units: 1,
  connections: 10
})
say(ceiling)
if (want('reference')) {
  const ref = await drive('bare route + 10 us of work per request (reference)', bare.url, {
    path: '/bare-10us',
    body: form({ api_key: KEY, text: short(0) }),
    type: 'application/x-www-form-urlencoded',
    units: 1,
    connections: 10
  })
  relative.push(ref)
  say(ref)
}
// the service's request path warms up (JIT) on 2 s of single texts that are not reported, so the
// first row measured is not the one that pays for it (only for services started here: a --url
// service is the caller's, with its quota)
for (const url of args.url === undefined ? [service, redisService] : []) {
  if (url !== undefined) {
    await autocannon({
      url: url + '/v4/sentiment',
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form({ api_key: KEY, text: short(0) }),
      connections: 10,
      duration: 2
    })
  }
}
const text: Array<[string, string, string, number, number]> = [
  ['sentiment, urlencoded', '/v4/sentiment', form({ api_key: KEY, text: short(0) }), 1, 10],
  ['emotion, urlencoded', '/v4/emotion', form({ api_key: KEY, text: short(1) }), 1, 10],
  ['intent, urlencoded', '/v4/intent', form({ api_key: KEY, text: short(2) }), 1, 10],
  ['sentiment_batch of 32, urlencoded', '/v4/sentiment_batch', form({ api_key: KEY, text: batch(32) }), 32, 4],
  ['sentiment_batch of 1000, urlencoded', '/v4/sentiment_batch', form({ api_key: KEY, text: batch(1000) }), 1000, 2],
  ['ner, urlencoded', '/v4/ner', form({ api_key: KEY, text: NER_TEXT }), 1, 10],
  ['ner_batch of 1000, urlencoded', '/v4/ner_batch', form({ api_key: KEY, text: nerBatch(1000) }), 1000, 2],
  ['keywords, urlencoded', '/v4/keywords', form({ api_key: KEY, text: ABSTRACT }), 1, 10],
  [
    'similarity, urlencoded',
    '/v4/similarity',
    form({
      api_key: KEY,
      text_1: 'A man is playing a guitar on stage.',
      text_2: 'Someone plays the guitar at a concert.'
    }),
    1,
    10
  ]
]
for (const [name, path, body, units, connections] of text) {
  if (!want(name)) continue
  const r = await drive(name, service, { path, body, type: 'application/x-www-form-urlencoded', units, connections })
  relative.push(r)
  if (redisService !== undefined) r.store = 'embedded'
  say(r)
  if (redisService !== undefined) {
    const rr = await drive(`${name}, Redis store`, redisService, {
      path,
      body,
      type: 'application/x-www-form-urlencoded',
      units,
      connections
    })
    relative.push(rr)
    rr.store = 'redis'
    say(rr)
  }
}
if (want('multipart')) {
  const mp = multipart({ api_key: KEY, text: short(0) })
  const r = await drive('sentiment, multipart', service, {
    path: '/v4/sentiment',
    body: mp.body,
    type: mp.type,
    units: 1,
    connections: 10
  })
  relative.push(r)
  say(r)
}
if (relative.length > 0) {
  const again = await drive('bare Fastify route (ceiling, again after the rows above)', bare.url, {
    path: '/bare',
    body: form({ api_key: KEY, text: short(0) }),
    type: 'application/x-www-form-urlencoded',
    units: 1,
    connections: 10
  })
  say(again)
  const mean = (ceiling.reqPerSec + again.reqPerSec) / 2
  for (const r of relative) r.ratio = r.reqPerSec / mean
}
for (const [op, sizes, connections] of [
  ['facial_emotion', [256, 640, 1920], 2],
  ['object_recognizer', [640], 2]
] as const) {
  for (const w of sizes) {
    const name = `${op}, ${w} px, multipart, ${connections} clients`
    if (!want(name)) continue
    const mp = multipart({ api_key: KEY }, await img(w))
    say(await drive(name, service, { path: `/v4/${op}`, body: mp.body, type: mp.type, units: 1, connections }))
  }
}
let live: Awaited<ReturnType<typeof liveWhile>> | null = null
if (want('live')) {
  const mp = multipart({ api_key: KEY }, await img(640))
  const load = drive('facial_emotion, 640 px, 8 clients (saturated)', service, {
    path: '/v4/facial_emotion',
    body: mp.body,
    type: mp.type,
    units: 1,
    connections: 8
  })
  live = await liveWhile(service, load)
  say(await load)
}
// inference must not block the event loop: liveness while 1000-text ner batches are being tagged
let liveNer: Awaited<ReturnType<typeof liveWhile>> | null = null
if (want('live')) {
  const load = drive('ner_batch of 1000, 2 clients (liveness probe)', service, {
    path: '/v4/ner_batch',
    body: form({ api_key: KEY, text: nerBatch(1000) }),
    type: 'application/x-www-form-urlencoded',
    units: 1000,
    connections: 2
  })
  liveNer = await liveWhile(service, load)
  say(await load)
}
const peak = peakRssMb(servicePid)
const redisPeak = peakRssMb(redisPid)

const ms = (x: number) => x.toFixed(0).padStart(6)
const lines = [
  `Load test ${new Date().toISOString().slice(0, 10)}, ${DURATION} s per endpoint, service ${args.url ?? 'started here (embedded store' + (redisService !== undefined ? '; text endpoints also on a second service with the Redis store at ' + (redisUrl as string) : '') + ')'}`,
  '| endpoint | req/s | texts or images/s | p50 ms | p90 ms | p99 ms | errors | of ceiling |',
  '|---|---:|---:|---:|---:|---:|---:|---:|',
  ...rows.map(
    r =>
      `| ${r.name} | ${r.reqPerSec.toFixed(0)} | ${r.unitsPerSec.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p90)} | ${ms(r.p99)} | ${r.errors} | ${r.ratio === undefined ? '' : (100 * r.ratio).toFixed(0) + '%'} |`
  )
]
if (live !== null) {
  lines.push(
    '',
    `/health/live while 8 image requests are in flight: p50 ${live.p50.toFixed(1)} ms, p99 ${live.p99.toFixed(1)} ms, max ${live.max.toFixed(1)} ms (${live.n} probes)`
  )
}
if (liveNer !== null) {
  lines.push(
    `/health/live while 1000-text ner batches run: p50 ${liveNer.p50.toFixed(1)} ms, p99 ${liveNer.p99.toFixed(1)} ms, max ${liveNer.max.toFixed(1)} ms (${liveNer.n} probes)`
  )
}
if (peak !== null) {
  lines.push(
    `service peak RSS: ${peak} MB (WEB_CONCURRENCY ${process.env.WEB_CONCURRENCY ?? 'default'}; summed over its processes)`
  )
}
if (redisPeak !== null) lines.push(`Redis-store service peak RSS: ${redisPeak} MB`)
console.log(lines.join('\n'))
if (args.json !== undefined) {
  writeFileSync(
    args.json,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        duration: DURATION,
        rows,
        live,
        liveNer,
        peakRssMb: peak,
        ...(redisService !== undefined ? { redisPeakRssMb: redisPeak } : {})
      },
      null,
      2
    )
  )
}
for (const p of procs) p.kill('SIGTERM')
process.exit(0)
