// [WEB_CONCURRENCY=N] npm run loadtest [-- --url http://host:port --key KEY] [--duration 10]
//                  [--json results.json] [--only a,b] [--redis [redis://host:port]] [--origin https://app.example]
// Starts the service on the embedded store (unless --url), drives every operation with the bodies
// real clients send, and prints per endpoint: requests/s, texts or images/s, p50/p90/p99 latency,
// errors, and the service's peak memory; a bare Fastify route on the same settings is the ceiling.
// With REDIS_URL or --redis URL (or a bare --redis: a throwaway redis-server on a free port), a
// second service on the Redis store is driven on the text endpoints too, each row next to its
// embedded-store twin, so that the cost of the Redis quota and rate-limit path shows.
import autocannon from 'autocannon'
import type { ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { ABSTRACT, batch, form, img, multipart, NER_TEXT, nerBatch, short } from './loadtest/bodies.js'
import { peakRssMb, root, start, startRedis } from './loadtest/processes.js'
import { reportLines, writeJson } from './loadtest/report.js'
import { driver, liveWhile, type Live, type Row } from './loadtest/requests.js'

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
const KEY = args.key ?? 'loadtest-key-0000000000000000'
const drive = driver(args.origin, DURATION)

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
let live: Live | null = null
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
let liveNer: Live | null = null
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

const results = { duration: DURATION, url: args.url, redisService, redisUrl, rows, live, liveNer, peak, redisPeak }
console.log(reportLines(results).join('\n'))
if (args.json !== undefined) writeJson(args.json, results)
for (const p of procs) p.kill('SIGTERM')
process.exit(0)
