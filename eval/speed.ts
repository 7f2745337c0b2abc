// Inference cost on this machine: texts per second for batches of 1, 32 and 1000 per text model
// (through the service's loader), and the memory of the whole service with every model loaded.
// node --import tsx eval/speed.ts      (writes eval/speed.md)
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { getTf } from '../lib/runtime/tf.js'
import { scanStore } from '../lib/serving/registry.js'
import { classifierLoader } from '../lib/text/classifier-kinds.js'
import { childEnv } from './options.js'

const root = join(import.meta.dirname, '..')
const { tf, backend } = await getTf()
const sample = [
  'great phone, love it',
  'worst service ever, never again',
  'the meeting is at noon on friday',
  'what a lovely day with friends',
  'not sure about this new update',
  'Stocks fell on Wall Street as oil prices rose'
]
const texts = (n: number) => Array.from({ length: n }, (_, i) => sample[i % sample.length] as string)
const lines: string[] = [
  `Inference speed, ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores ` +
    `(${cpus()[0]?.model ?? 'cpu'}), TensorFlow.js ${backend}, one thread`,
  '',
  '| model | batch of 1 (texts/s) | batch of 32 | batch of 1000 |',
  '|---|---:|---:|---:|'
]
for (const info of await scanStore(join(root, 'model-store'))) {
  const load = classifierLoader(info.manifest.kind)
  if (load === undefined) continue
  const model = await load(info.dir, info.manifest, tf, { imageMaxPixels: 0 })
  const rate = async (n: number) => {
    const batch = texts(n)
    // half a second unmeasured first: the JIT compiles the hot paths
    const warm = performance.now()
    while (performance.now() - warm < 500) await model.predict(batch)
    let done = 0
    const t0 = performance.now()
    while (performance.now() - t0 < 1500) {
      await model.predict(batch)
      done += n
    }
    return done / ((performance.now() - t0) / 1000)
  }
  lines.push(
    `| ${info.name} | ${(await rate(1)).toFixed(0)} | ${(await rate(32)).toFixed(0)} | ` +
      `${(await rate(1000)).toFixed(0)} |`
  )
  model.dispose()
}

// the whole service, every model loaded and warmed, after a little traffic of each kind
const port = await new Promise<number>(resolve => {
  const s = createServer()
  s.listen(0, '127.0.0.1', () => {
    const p = (s.address() as { port: number }).port
    s.close(() => resolve(p))
  })
})
const proc = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
  cwd: root,
  env: childEnv({
    HOST: '127.0.0.1',
    PORT: String(port),
    API_KEYS: 'speed-key',
    LOG_LEVEL: 'warn',
    DATA_DIR: join(root, 'data', 'speed')
  }),
  stdio: 'ignore'
})
const base = `http://127.0.0.1:${port}`
const t0 = performance.now()
for (let i = 0; i < 300; i++) {
  try {
    if ((await fetch(`${base}/health/ready`)).ok) break
  } catch {}
  await new Promise(resolve => setTimeout(resolve, 200))
}
const startMs = performance.now() - t0
const status = () => readFileSync(`/proc/${proc.pid}/status`, 'utf8')
const mb = (field: string) => Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status())?.[1]) / 1024)
const idle = mb('VmRSS')
for (const op of ['sentiment', 'emotion', 'sarcasm', 'intent', 'taxonomy', 'new/intent']) {
  await fetch(`${base}/v4/${op}_batch`, {
    method: 'POST',
    body: new URLSearchParams({ api_key: 'speed-key', text: JSON.stringify(texts(1000)) })
  })
}
const portrait = readFileSync(join(root, 'node_modules', 'paralleldots', 'image-file.jpg'))
for (const op of ['facial_emotion', 'object_recognizer']) {
  for (let i = 0; i < 5; i++) {
    const f = new FormData()
    f.append('api_key', 'speed-key')
    f.append('file', new Blob([portrait]), 'file')
    await fetch(`${base}/v4/${op}`, { method: 'POST', body: f })
  }
}
lines.push(
  '',
  'Whole service (server.ts, every model in model-store loaded and warmed): ' +
    `ready in ${(startMs / 1000).toFixed(1)} s, RSS ${idle} MB idle, ${mb('VmRSS')} MB after batches of 1000 texts ` +
    `on each text operation and 5 images on each image operation, peak ${mb('VmHWM')} MB.`
)
proc.kill('SIGTERM')
console.log(lines.join('\n'))
writeFileSync(join(import.meta.dirname, 'speed.md'), lines.join('\n') + '\n')
