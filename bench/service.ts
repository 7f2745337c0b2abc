// What the HTTP benchmarks of batches share (bench/batch-cost.ts, bench/deadlines.ts): the text
// operations with a batch path, the texts they send (the project's everyday sentences, and texts of
// 7,000 characters made of them), and the service on the real model store with the production
// options, listening on a free local port.
import Fastify from 'fastify'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import app from '../app.js'
import { loadConfig } from '../lib/config.js'
import { serverOptions } from '../options.js'

export const KEY = 'bench-key-0123456789'

export const BATCH_OPS = [
  'sentiment',
  'emotion',
  'sarcasm',
  'intent',
  'new/intent',
  'taxonomy',
  'abuse',
  'ner',
  'keywords',
  'phrase_extractor',
  'language_detection',
  'target_sentiment'
]

/** The batch operations a comma-separated --only names (all when it is empty). */
export const chosen = (only: string) => BATCH_OPS.filter(op => only === '' || only.split(',').includes(op))

const EVERYDAY = join(import.meta.dirname, '..', 'eval', 'data', 'everyday.jsonl')
const everyday = readFileSync(EVERYDAY, 'utf8')
  .trim()
  .split('\n')
  .map(l => (JSON.parse(l) as { text: string }).text)

/** The i-th everyday sentence (they repeat). */
export const short = (i: number) => everyday[i % everyday.length] as string

/** A text of 7,000 characters made of everyday sentences, different for each i (up to the set's size). */
export function long (i: number): string {
  let s = ''
  for (let k = i; s.length < 7000; k += 7) s += short(k) + ' '
  return s.slice(0, 7000)
}

/** target_sentiment's aspect, and a text that holds it */
export const ASPECT = 'service'
export const withAspect = (text: string) => `${text} The ${ASPECT}.`

export interface Service {
  base: string
  close: () => Promise<void>
}

/** The service on the real model store with KEY, the production options and `env` on top. */
export async function startService (env: Record<string, string> = {}): Promise<Service> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-'))
  const config = loadConfig({ ...process.env, API_KEYS: KEY, DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env })
  const fastify = Fastify(serverOptions(config, false))
  await fastify.register(app, { config })
  await fastify.listen({ host: '127.0.0.1', port: 0 })
  const { port } = fastify.server.address() as { port: number }
  const close = async () => {
    await fastify.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
  return { base: `http://127.0.0.1:${port}`, close }
}

/** A JSON POST with KEY: the answer's status and its body as text. */
export async function post (url: string, body: Record<string, unknown>): Promise<{ status: number; text: string }> {
  const headers = { 'content-type': 'application/json' }
  const res = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ api_key: KEY, ...body }) })
  return { status: res.status, text: await res.text() }
}
