// node --import tsx bench/batch-cost.ts [--n 100] [--only keywords,ner]: what a batch of N texts costs
// against N single requests, for every text operation with a batch path, through HTTP on this
// machine (the real model store, the production options and defaults). Short texts are the
// project's everyday sentences; long ones are 7,000 characters made of them. Prints per-text
// milliseconds and the batch/singles ratio (at most about 1 is the target: a batch never costs
// more than its texts one by one), and keywords_batch of 100 long texts (the median of five) against its 1.5 s target.
// Asserts nothing.
import Fastify from 'fastify'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import app from '../app.js'
import { loadConfig } from '../lib/config.js'
import { serverOptions } from '../options.js'

const { values } = parseArgs({ options: { n: { type: 'string', default: '100' }, only: { type: 'string', default: '' } } })
const N = Number(values.n)
const OPS = ['sentiment', 'emotion', 'sarcasm', 'intent', 'new/intent', 'taxonomy', 'abuse', 'ner', 'keywords',
  'phrase_extractor', 'language_detection', 'target_sentiment'].filter((op) => values.only === '' || values.only.split(',').includes(op))
const KEY = 'bench-key-0123456789'

const everyday = readFileSync(join(import.meta.dirname, '..', 'eval', 'data', 'everyday.jsonl'), 'utf8')
  .trim().split('\n').map((l) => (JSON.parse(l) as { text: string }).text)
const short = (i: number) => everyday[i % everyday.length] as string
const long = (i: number) => {
  let s = ''
  for (let k = i; s.length < 7000; k += 7) s += short(k) + ' '
  return s.slice(0, 7000)
}

const dataDir = mkdtempSync(join(tmpdir(), 'bench-batch-'))
const config = loadConfig({ ...process.env, API_KEYS: KEY, DATA_DIR: dataDir, LOG_LEVEL: 'warn', MAX_EVENT_LOOP_DELAY_MS: '0' })
const fastify = Fastify(serverOptions(config, false))
await fastify.register(app, { config })
await fastify.listen({ host: '127.0.0.1', port: 0 })
const base = `http://127.0.0.1:${(fastify.server.address() as { port: number }).port}/v4`

async function post (op: string, body: Record<string, unknown>): Promise<number> {
  const t0 = performance.now()
  const res = await fetch(`${base}/${op}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ api_key: KEY, ...body }) })
  const answer = await res.arrayBuffer()
  if (res.status !== 200) throw new Error(`${op}: ${res.status} ${new TextDecoder().decode(answer).slice(0, 200)}`)
  return performance.now() - t0
}
// target_sentiment's aspect must occur in every text
const fields = (op: string) => op === 'target_sentiment' ? { aspect: 'service' } : {}

async function cost (op: string, of: (i: number) => string): Promise<{ single: number, batch: number }> {
  const text = op === 'target_sentiment' ? (i: number) => `${of(i)} The service.` : of
  await post(`${op}_batch`, { text: Array.from({ length: 10 }, (_, i) => text(i + 500)), ...fields(op) })
  let singles = 0
  const ones = Math.min(N, 30)
  for (let i = 0; i < ones; i++) singles += await post(op, { text: text(i), ...fields(op) })
  const batch = await post(`${op}_batch`, { text: Array.from({ length: N }, (_, i) => text(i + 1000)), ...fields(op) })
  return { single: singles / ones, batch: batch / N }
}

console.log(`batch of ${N} against singles, ms per text (singles: the mean of ${Math.min(N, 30)} one by one)`)
console.log('operation            short: single  batch  ratio   long (7,000 chars): single  batch  ratio')
for (const op of OPS) {
  let s, l
  try {
    s = await cost(op, short)
    l = await cost(op, long)
  } catch (err) {
    console.log(`${op.padEnd(20)} failed: ${(err as Error).message}`)
    continue
  }
  const row = (c: { single: number, batch: number }) => `${c.single.toFixed(2).padStart(7)} ${c.batch.toFixed(2).padStart(6)} ${(c.batch / c.single).toFixed(2).padStart(6)}`
  console.log(`${op.padEnd(20)} ${row(s)}              ${row(l)}`)
}
if (OPS.includes('keywords')) {
  // five batches of other texts each, the median
  const runs: number[] = []
  for (let r = 0; r < 5; r++) runs.push(await post('keywords_batch', { text: Array.from({ length: 100 }, (_, i) => long(i + 2000 + 100 * r)) }))
  const s = runs.map((ms) => (ms / 1000).toFixed(2))
  const median = [...runs].sort((a, b) => a - b)[2] as number
  console.log(`keywords_batch of 100 texts of 7,000 characters: median ${(median / 1000).toFixed(2)} s of ${s.join(', ')} (target 1.5 s)`)
}
await fastify.close()
rmSync(dataDir, { recursive: true, force: true })
