// npm run soak [-- --minutes 10 --url http://host:port --key KEY]
// Mixed load for a while (text singles and batches in urlencoded and multipart, every text model,
// images, errors),
// the service's RSS sampled every 10 s, printed as an ASCII plot with its least-squares slope.
// Not part of the test suite. Starts the service on the embedded store unless --url is given
// (SOAK_STDERR=1 shows that service's stderr).
import autocannon from 'autocannon'
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import sharp from 'sharp'
import { ALLOCATOR_ENV } from '../lib/config.js'

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    url: { type: 'string' },
    key: { type: 'string' },
    every: { type: 'string', default: '10' }
  }
})
const root = join(import.meta.dirname, '..')
const KEY = args.key ?? 'soak-key-000000000000000000000'
const seconds = Number(args.minutes) * 60
let base = args.url
let pid: number | undefined
if (base === undefined) {
  const port = await new Promise<number>(resolve => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port
      s.close(() => resolve(p))
    })
  })
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
    cwd: root,
    env: {
      ...ALLOCATOR_ENV,
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      API_KEYS: KEY,
      LOG_LEVEL: 'warn',
      DATA_DIR: join(root, 'data', 'soak')
    },
    stdio: ['ignore', 'ignore', process.env.SOAK_STDERR ? 'inherit' : 'ignore']
  })
  process.on('exit', () => proc.kill('SIGKILL'))
  pid = proc.pid
  base = `http://127.0.0.1:${port}`
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${base}/health/ready`)).ok) break
    } catch {}
    await new Promise(resolve => setTimeout(resolve, 200))
  }
}
const rss = async (): Promise<number> => {
  if (pid !== undefined) return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024
  const m = /process_resident_memory_bytes (\d+)/.exec(await (await fetch(`${base}/metrics`)).text())
  return Number(m?.[1]) / 1024 / 1024
}

const texts = JSON.stringify(Array.from({ length: 100 }, (_, i) => `soak text number ${i}, rather nice or not`))
const img = await sharp(readFileSync(join(root, 'node_modules', 'paralleldots', 'image-file.jpg')))
  .resize({ width: 640 })
  .jpeg()
  .toBuffer()
const b = 'soakboundary'
const mp = Buffer.concat([
  Buffer.from(
    `--${b}\r\nContent-Disposition: form-data; name="api_key"\r\n\r\n${KEY}\r\n` +
      `--${b}\r\nContent-Disposition: form-data; name="file"; filename="file"\r\n\r\n`
  ),
  img,
  Buffer.from(`\r\n--${b}--\r\n`)
])
const form = (o: Record<string, string>) => new URLSearchParams(o).toString()
const requests = [
  {
    method: 'POST' as const,
    path: '/v4/sentiment',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form({ api_key: KEY, text: 'what a day' })
  },
  {
    method: 'POST' as const,
    path: '/v4/emotion_batch',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form({ api_key: KEY, text: texts })
  },
  {
    method: 'POST' as const,
    path: '/v4/intent',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ api_key: KEY, text: 'where is my parcel?' })
  },
  {
    method: 'POST' as const,
    path: '/v4/taxonomy',
    headers: { 'content-type': `multipart/form-data; boundary=${b}` },
    body:
      `--${b}\r\nContent-Disposition: form-data; name="api_key"\r\n\r\n${KEY}\r\n` +
      `--${b}\r\nContent-Disposition: form-data; name="text"\r\n\r\nThe match ended in a draw\r\n--${b}--\r\n`
  },
  {
    method: 'POST' as const,
    path: '/v4/sentiment',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form({ api_key: 'wrong', text: 'x' })
  },
  {
    method: 'POST' as const,
    path: '/v4/sarcasm_batch',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form({ api_key: KEY, text: '["a", 3]' })
  },
  {
    method: 'POST' as const,
    path: '/v4/ner_batch',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form({
      api_key: KEY,
      text: JSON.stringify([
        'Angela Merkel met Emmanuel Macron in Paris.',
        'Google opened an office in Zürich 🇨🇭 on Monday.'
      ]),
      lang_code: 'en'
    })
  },
  {
    method: 'POST' as const,
    path: '/v4/keywords',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form({
      api_key: KEY,
      text:
        'Convolutional neural networks are trained on a large image dataset and compared with support vector machines.'
    })
  },
  {
    method: 'POST' as const,
    path: '/v4/similarity',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form({ api_key: KEY, text_1: 'A man is playing a guitar.', text_2: 'Someone plays the guitar on stage.' })
  },
  {
    method: 'POST' as const,
    path: '/v4/facial_emotion',
    headers: { 'content-type': `multipart/form-data; boundary=${b}` },
    body: mp
  }
]
const samples: Array<[number, number]> = []
const t0 = Date.now()
const run = autocannon({ url: base, connections: 8, duration: seconds, requests })
const timer = setInterval(
  () => {
    void rss().then(mb => {
      samples.push([(Date.now() - t0) / 1000, mb])
      process.stderr.write(`  ${Math.round((Date.now() - t0) / 1000)} s: ${mb.toFixed(0)} MB\n`)
    })
  },
  Number(args.every) * 1000
)
const result = await run
clearInterval(timer)

// least-squares slope over the second half (after warm-up), in MB per minute
const tail = samples.slice(Math.floor(samples.length / 2))
const mx = tail.reduce((a, s) => a + s[0], 0) / tail.length
const my = tail.reduce((a, s) => a + s[1], 0) / tail.length
const slope =
  (tail.reduce((a, s) => a + (s[0] - mx) * (s[1] - my), 0) / (tail.reduce((a, s) => a + (s[0] - mx) ** 2, 0) || 1)) * 60
const lo = Math.min(...samples.map(s => s[1]))
const hi = Math.max(...samples.map(s => s[1]))
const rows = 12
const plot: string[] = []
for (let r = rows - 1; r >= 0; r--) {
  const level = lo + ((hi - lo) * r) / (rows - 1)
  plot.push(
    `${level.toFixed(0).padStart(6)} MB |` +
      samples.map(s => (Math.round(((s[1] - lo) / (hi - lo || 1)) * (rows - 1)) === r ? '*' : ' ')).join('')
  )
}
plot.push(' '.repeat(10) + '+' + '-'.repeat(samples.length) + `> ${Math.round(seconds)} s`)
console.log(
  `Soak ${new Date().toISOString()}: ${Math.round(seconds / 60)} min, ${result.requests.total} requests ` +
    `(${result.non2xx} non-2xx by design: bad keys and bad batches are in the mix; ` +
    `${result.errors} socket errors, ${result.timeouts} timeouts)`
)
console.log(plot.join('\n'))
console.log(
  `RSS ${samples[0]?.[1].toFixed(0)} MB at the first sample, ${samples.at(-1)?.[1].toFixed(0)} MB at the end, ` +
    `peak ${hi.toFixed(0)} MB; slope over the second half ${slope.toFixed(2)} MB/min`
)
process.exit(0)
