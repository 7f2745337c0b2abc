// node --import tsx bench/deadlines.ts [--deadlines 1,5,30] [--only keywords,ner]: no request is
// left without an answer, and none is charged without one. For each deadline (REQUEST_TIMEOUT_MS,
// seconds) a server on the real model store gets, for every text operation with a batch path, a
// batch at the limits (1,000 texts of 7,000 characters), and, for object_recognizer, an image
// address whose server stalls and one that drips its bytes. Prints each answer's status and time,
// and, per deadline, empty replies and units charged for requests that got no 200 (both should
// be 0). Asserts nothing.
import Fastify from 'fastify'
import https from 'node:https'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import app from '../app.js'
import { loadConfig } from '../lib/config.js'
import { serverOptions } from '../options.js'

const { values } = parseArgs({ options: { deadlines: { type: 'string', default: '1,5,30' }, only: { type: 'string', default: '' } } })
const OPS = ['sentiment', 'emotion', 'sarcasm', 'intent', 'new/intent', 'taxonomy', 'abuse', 'ner', 'keywords',
  'phrase_extractor', 'language_detection', 'target_sentiment'].filter((op) => values.only === '' || values.only.split(',').includes(op))
const KEY = 'bench-key-0123456789'
const everyday = readFileSync(join(import.meta.dirname, '..', 'eval', 'data', 'everyday.jsonl'), 'utf8')
  .trim().split('\n').map((l) => (JSON.parse(l) as { text: string }).text)
const long = (i: number) => {
  let s = ''
  for (let k = i; s.length < 7000; k += 7) s += `${everyday[k % everyday.length] as string} `
  return s.slice(0, 7000)
}
const texts = Array.from({ length: 1000 }, (_, i) => long(i))
// target_sentiment's aspect must occur in every text
const aspectTexts = texts.map((t) => `${t.slice(0, 6980)} The service.`)

// an https image server that never answers (/stall) or sends a byte a second (/drip)
const scratch = mkdtempSync(join(tmpdir(), 'bench-deadlines-'))
execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
  '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(scratch, 'key.pem'), '-out', join(scratch, 'cert.pem')], { stdio: 'ignore' })
const images = https.createServer({ key: readFileSync(join(scratch, 'key.pem')), cert: readFileSync(join(scratch, 'cert.pem')) }, (req, res) => {
  if (req.url === '/drip') {
    res.writeHead(200, { 'content-type': 'image/jpeg' })
    const t = setInterval(() => res.write(Buffer.from([0xff])), 1000)
    res.on('close', () => clearInterval(t))
  }
})
await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve))
const imagePort = (images.address() as { port: number }).port

for (const seconds of values.deadlines.split(',').map(Number)) {
  const config = loadConfig({
    ...process.env, API_KEYS: KEY, DATA_DIR: mkdtempSync(join(scratch, 'data-')), LOG_LEVEL: 'silent',
    REQUEST_TIMEOUT_MS: String(seconds * 1000), IMAGE_FETCH_ALLOW_HOSTS: '127.0.0.1', IMAGE_FETCH_CA_FILE: join(scratch, 'cert.pem')
  })
  const fastify = Fastify(serverOptions(config, false))
  await fastify.register(app, { config })
  await fastify.listen({ host: '127.0.0.1', port: 0 })
  const base = `http://127.0.0.1:${(fastify.server.address() as { port: number }).port}`
  let empty = 0
  let answered = 0
  const post = async (path: string, body: Record<string, unknown>) => {
    const t0 = performance.now()
    try {
      const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ api_key: KEY, ...body }) })
      const json = await res.json() as { code?: number, message?: string }
      if (res.status === 200) answered += path.startsWith('/v4/object') ? 0 : (body.text as unknown[]).length
      const why = res.status === 200 ? '' : ` (${String(json.message).slice(0, 40)}...)`
      return `${res.status}${why} in ${((performance.now() - t0) / 1000).toFixed(1)} s`
    } catch (err) {
      empty++
      return `no answer (${(err as Error).message}) after ${((performance.now() - t0) / 1000).toFixed(1)} s`
    }
  }
  console.log(`REQUEST_TIMEOUT_MS=${seconds * 1000}`)
  for (const op of OPS) {
    const body = op === 'target_sentiment' ? { text: aspectTexts, aspect: 'service' } : { text: texts }
    console.log(`  ${op}_batch of 1,000 x 7,000 characters: ${await post(`/v4/${op}_batch`, body)}`)
  }
  for (const what of ['stall', 'drip']) {
    console.log(`  object_recognizer, a server that ${what}s: ${await post('/v4/object_recognizer', { url: `https://127.0.0.1:${imagePort}/${what}` })}`)
  }
  const usage = await (await fetch(`${base}/usage`, { method: 'POST', body: new URLSearchParams({ api_key: KEY }) })).json() as { text: { daily: { used: number } }, image: { daily: { used: number } } }
  const unanswered = usage.text.daily.used - answered + usage.image.daily.used
  console.log(`  empty replies: ${empty}; units charged without a 200: ${unanswered}`)
  await fastify.close()
}
images.closeAllConnections()
images.close()
rmSync(scratch, { recursive: true, force: true })
