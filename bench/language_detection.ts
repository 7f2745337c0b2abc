// node --import tsx bench/language_detection.ts: prints the p50/p90/p99 time of one text through
// /v4/language_detection (in-process, fastify inject, 3-word and one-sentence texts), of the detector
// alone, and what detection adds to /v4/sentiment (lang_code omitted against lang_code=en).
import Fastify from 'fastify'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import app from '../app.js'
import { loadConfig } from '../lib/config.js'
import { serverOptions } from '../options.js'

const N = Number(process.env.BENCH_N ?? 2000)
const store = mkdtempSync(join(tmpdir(), 'lang-bench-'))
for (const m of ['language_detection', 'sentiment']) {
  symlinkSync(join(import.meta.dirname, '..', 'model-store', m), join(store, m), 'dir')
}
const config = loadConfig({
  API_KEYS: 'bench-key-0123456789',
  DATA_DIR: store,
  MODEL_STORE: store,
  TEXT_WORKERS: '0',
  MAX_EVENT_LOOP_DELAY_MS: '0'
})
const fastify = Fastify(serverOptions(config, false))
await fastify.register(app, { config })
await fastify.ready()

const quantiles = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return [0.5, 0.9, 0.99].map(q => (s[Math.floor(q * (s.length - 1))] as number).toFixed(3)).join(' / ')
}
async function time (label: string, url: string, payload: Record<string, string>) {
  const ms: number[] = []
  for (let i = 0; i < N + 200; i++) {
    const t0 = performance.now()
    const res = await fastify.inject({ method: 'POST', url, payload: { api_key: 'bench-key-0123456789', ...payload } })
    if (i >= 200) ms.push(performance.now() - t0)
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
  }
  console.log(`${label.padEnd(52)} p50 / p90 / p99 ms: ${quantiles(ms)}`)
}
await time('language_detection, 3 words', '/v4/language_detection', { text: 'hoe gaat het' })
await time('language_detection, one sentence', '/v4/language_detection', {
  text: 'El servicio fue horrible y nadie me ayudó en toda la tarde'
})
await time('sentiment, lang_code=en', '/v4/sentiment', {
  text: 'The delivery was late again and nobody answered',
  lang_code: 'en'
})
await time('sentiment, lang_code omitted (detected)', '/v4/sentiment', {
  text: 'The delivery was late again and nobody answered'
})
const det = fastify.models.get<string, unknown>('language_detection')!
const ms: number[] = []
for (let i = 0; i < N; i++) {
  const t0 = performance.now()
  await det.predict(['El servicio fue horrible y nadie me ayudó en toda la tarde'])
  ms.push(performance.now() - t0)
}
console.log(`${'detector alone, one sentence'.padEnd(52)} p50 / p90 / p99 ms: ${quantiles(ms)}`)
await fastify.close()
rmSync(store, { recursive: true, force: true })
