// node --import tsx bench/cors-inject.ts [--base DIR] [--rounds 15] [--batch 400]
// What CORS costs a single text, measured in one process where a busy host disturbs it least: the
// real app (the sentiment model, on the main thread) built several times, and batches of POST
// /v4/sentiment through inject() (no sockets) timed in turn, one request at a time:
//   before   the checkout in --base (e.g. one made with `git worktree add`), if given
//   off      this tree, CORS_ORIGINS unset (the default), no Origin header
//   listed   this tree, CORS_ORIGINS set, a listed Origin: every answer carries the CORS headers
//   none     this tree, CORS_ORIGINS set, no Origin header (curl, servers, client libraries)
// Prints each variant's median and fastest batch in CPU microseconds per request: CPU time of this
// process (process.cpuUsage), not wall time, so that the time the neighbours hold the cores is left
// out; the fastest batch is the one they disturbed least (caches, memory bandwidth).
import Fastify, { type FastifyInstance } from 'fastify'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'

const { values: args } = parseArgs({
  options: {
    base: { type: 'string' },
    rounds: { type: 'string', default: '15' },
    batch: { type: 'string', default: '400' }
  }
})
const ROUNDS = Number(args.rounds)
const BATCH = Number(args.batch)
const KEY = 'bench-cors-key-000000000000000000'
const ORIGIN = 'https://app.example'
const here = join(import.meta.dirname, '..')
const tmp = mkdtempSync(join(tmpdir(), 'bench-cors-'))
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }))
// a store holding the sentiment model only, so that each app loads what it needs
symlinkSync(join(here, 'model-store', 'sentiment'), join(tmp, 'sentiment'), 'dir')

async function build (dir: string, env: Record<string, string>): Promise<FastifyInstance> {
  const { default: app } = (await import(join(dir, 'app.ts'))) as {
    default: Parameters<FastifyInstance['register']>[0]
  }
  const { serverOptions } = (await import(join(dir, 'options.ts'))) as {
    serverOptions: (c: unknown, l: boolean) => object
  }
  const { loadConfig } = (await import(join(dir, 'lib', 'config.ts'))) as {
    loadConfig: (e: Record<string, string>) => unknown
  }
  const config = loadConfig({
    API_KEYS: KEY,
    MODEL_STORE: tmp,
    DATA_DIR: mkdtempSync(join(tmp, 'data-')),
    TEXT_WORKERS: '0',
    MAX_EVENT_LOOP_DELAY_MS: '0',
    ...env
  })
  const fastify = Fastify(serverOptions(config, false))
  await fastify.register(app, { config } as never)
  await fastify.ready()
  return fastify
}

const payload = new URLSearchParams({ api_key: KEY, text: 'great phone, love it' }).toString()
type Variant = { name: string; app: FastifyInstance; origin: string | null; times: number[] }
const variants: Variant[] = []
if (args.base !== undefined) {
  variants.push({ name: `before (${args.base})`, app: await build(resolve(args.base), {}), origin: null, times: [] })
}
const withCors = await build(here, { CORS_ORIGINS: ORIGIN })
variants.push({ name: 'off (CORS_ORIGINS unset)', app: await build(here, {}), origin: null, times: [] })
variants.push({ name: 'listed Origin (CORS headers answered)', app: withCors, origin: ORIGIN, times: [] })
variants.push({ name: 'no Origin, CORS_ORIGINS set', app: withCors, origin: null, times: [] })

async function batch (v: Variant, n: number): Promise<number> {
  const headers = {
    'content-type': 'application/x-www-form-urlencoded',
    ...(v.origin === null ? {} : { origin: v.origin })
  }
  const t0 = process.cpuUsage()
  for (let i = 0; i < n; i++) {
    const res = await v.app.inject({ method: 'POST', url: '/v4/sentiment', headers, payload })
    if (res.statusCode !== 200) throw new Error(`${v.name}: ${res.statusCode} ${res.body}`)
    if ((res.headers['access-control-allow-origin'] !== undefined) !== (v.origin !== null && v.app === withCors)) {
      throw new Error(`${v.name}: unexpected CORS headers`)
    }
  }
  const used = process.cpuUsage(t0)
  return (used.user + used.system) / n
}

for (const v of variants) await batch(v, BATCH) // warm-up (JIT), not reported
for (let r = 0; r < ROUNDS; r++) {
  // the order rotates, so that a trend in the neighbours' load favours no variant
  for (let i = 0; i < variants.length; i++) {
    const v = variants[(r + i) % variants.length]!
    v.times.push(await batch(v, BATCH))
  }
}
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}
const ref = variants.find(v => v.name.startsWith('off'))!
console.log(
  `POST /v4/sentiment through inject(), ${ROUNDS} rounds of ${BATCH} requests per variant, ` +
    'CPU microseconds per request:'
)
for (const v of variants) {
  console.log(
    `  ${v.name}: median ${median(v.times).toFixed(1)} ` +
      `(${((100 * median(v.times)) / median(ref.times)).toFixed(1)}% of off), ` +
      `fastest batch ${Math.min(...v.times).toFixed(1)} ` +
      `(${((100 * Math.min(...v.times)) / Math.min(...ref.times)).toFixed(1)}%)`
  )
}
process.exit(0)
