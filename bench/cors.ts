// node --import tsx bench/cors.ts [--base DIR] [--rounds 10] [--seconds 3] [--connections 10]
// What CORS costs single texts (POST /v4/sentiment, urlencoded): two services side by side, driven
// in turn by short autocannon runs, so that the neighbours' load on a shared host falls on both
// alike: "before" (the checkout in --base, e.g. one made with `git worktree add`, or this tree with
// CORS off) without an Origin header, and "after" (this tree with CORS_ORIGINS set) with a listed
// Origin on every request, so that every answer carries the CORS headers. Prints each pair, the
// median of the after/before ratios, and the medians of both; and, steadier on a busy host than
// req/s (which follows the share of the cores the neighbours leave), each service's CPU time per
// request (all its threads, from /proc).
import autocannon from 'autocannon'
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'

const { values: args } = parseArgs({
  options: {
    base: { type: 'string' },
    rounds: { type: 'string', default: '10' },
    seconds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' }
  }
})
const ROUNDS = Number(args.rounds)
const SECONDS = Number(args.seconds)
const CONNECTIONS = Number(args.connections)
const KEY = 'bench-cors-key-000000000000000000'
const ORIGIN = 'https://app.example'
const here = join(import.meta.dirname, '..')
const procs: ChildProcess[] = []
process.on('exit', () => {
  for (const p of procs) p.kill('SIGKILL')
})

interface Service {
  url: string
  pid: number
}
/** CPU seconds used so far by a process, all threads (utime + stime in /proc/<pid>/stat) */
function cpuSeconds (pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

async function start (dir: string, env: Record<string, string>): Promise<Service> {
  const port = await new Promise<number>(resolve => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port
      s.close(() => resolve(p))
    })
  })
  const { CORS_ORIGINS: _, ...inherited } = process.env
  // `node --import tsx` loads TypeScript in the server's own process: its pid is the server's
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
    cwd: dir,
    env: {
      ...inherited,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'warn',
      API_KEYS: KEY,
      DATA_DIR: join(dir, 'data', 'bench-cors'),
      ...env
    },
    stdio: ['ignore', 'ignore', 'inherit']
  })
  procs.push(proc)
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 900; i++) {
    if ((await fetch(`${url}/health/ready`).catch(() => null))?.status === 200) return { url, pid: proc.pid as number }
    await new Promise(resolve => setTimeout(resolve, 200))
  }
  throw new Error(`the service in ${dir} did not become ready`)
}

const body = new URLSearchParams({ api_key: KEY, text: 'great phone, love it' }).toString()
const headersFor = (origin: string | null) => ({
  'content-type': 'application/x-www-form-urlencoded',
  ...(origin === null ? {} : { origin })
})
/** req/s, and the service's CPU microseconds per request */
async function run (s: Service, origin: string | null, seconds = SECONDS): Promise<[number, number]> {
  const cpu0 = cpuSeconds(s.pid)
  const r = await autocannon({
    url: `${s.url}/v4/sentiment`,
    method: 'POST',
    headers: headersFor(origin),
    body,
    connections: CONNECTIONS,
    duration: seconds
  })
  const cpu = cpuSeconds(s.pid) - cpu0
  // a busy host can make the service shed load (503): those are left out of both figures
  const failed = r.non2xx + r.errors + r.timeouts
  if (failed > 0) console.log(`  ${failed} of ${r.requests.total} requests failed (load shedding on a busy host?)`)
  return [r.requests.average, (1e6 * cpu) / Math.max(1, r['2xx'])]
}

const before = await start(args.base === undefined ? here : resolve(args.base), {})
const after = await start(here, { CORS_ORIGINS: ORIGIN })
const acao = async (s: Service, origin: string | null) =>
  (await fetch(`${s.url}/v4/sentiment`, { method: 'POST', headers: headersFor(origin), body })).headers.get(
    'access-control-allow-origin'
  )
console.log(
  `before: ${args.base ?? 'this tree, CORS off'}, Access-Control-Allow-Origin ${await acao(before, null)}; ` +
    `after: this tree, CORS_ORIGINS=${ORIGIN}, Access-Control-Allow-Origin ${await acao(after, ORIGIN)}`
)
await run(before, null, 3)
await run(after, ORIGIN, 3) // warm-up, not reported

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}
const b: number[] = []
const a: number[] = []
const ratios: number[] = []
const cb: number[] = []
const ca: number[] = []
for (let i = 0; i < ROUNDS; i++) {
  // the order alternates too, so that a trend in the neighbours' load favours neither side
  let x: [number, number], y: [number, number]
  if (i % 2 === 0) {
    x = await run(before, null)
    y = await run(after, ORIGIN)
  } else {
    y = await run(after, ORIGIN)
    x = await run(before, null)
  }
  b.push(x[0])
  a.push(y[0])
  ratios.push(y[0] / x[0])
  cb.push(x[1])
  ca.push(y[1])
  console.log(
    `round ${i + 1}: before ${x[0].toFixed(0)} req/s ${x[1].toFixed(0)} us CPU/request, ` +
      `after ${y[0].toFixed(0)} req/s ${y[1].toFixed(0)} us CPU/request (${((100 * y[0]) / x[0]).toFixed(1)}%)`
  )
}
console.log(
  `req/s: median before ${median(b).toFixed(0)}, after ${median(a).toFixed(0)}; ` +
    `median ratio ${(100 * median(ratios)).toFixed(1)}% (${ROUNDS} pairs of ${SECONDS} s, ${CONNECTIONS} connections)`
)
console.log(
  `CPU per request: median before ${median(cb).toFixed(1)} us, after ${median(ca).toFixed(1)} us ` +
    `(${((100 * median(ca)) / median(cb)).toFixed(1)}%)`
)
process.exit(0)
