// node --import tsx bench/deadlines.ts [--deadlines 1,5,30] [--only keywords,ner]: no request is
// left without an answer, and none is charged without one. For each deadline (REQUEST_TIMEOUT_MS,
// seconds) a server on the real model store gets, for every text operation with a batch path, a
// batch at the limits (1,000 texts of 7,000 characters), and, for object_recognizer, an image
// address whose server stalls and one that drips its bytes. Prints each answer's status and time,
// and, per deadline, empty replies and units charged for requests that got no 200 (both should
// be 0). Asserts nothing.
import https from 'node:https'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { ASPECT, chosen, long, post, startService, withAspect } from './service.js'
import { selfSignedCert } from '../test/image-fixtures.js'

const options = { deadlines: { type: 'string', default: '1,5,30' }, only: { type: 'string', default: '' } } as const
const { values } = parseArgs({ options })
const OPS = chosen(values.only)
const texts = Array.from({ length: 1000 }, (_, i) => long(i))
// target_sentiment's aspect must occur in every text
const aspectTexts = texts.map(t => withAspect(t.slice(0, 6980)))

// an https image server that never answers (/stall) or sends a byte a second (/drip)
const scratch = mkdtempSync(join(tmpdir(), 'bench-deadlines-'))
const tls = selfSignedCert(scratch)
const images = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
  if (req.url === '/drip') {
    res.writeHead(200, { 'content-type': 'image/jpeg' })
    const t = setInterval(() => res.write(Buffer.from([0xff])), 1000)
    res.on('close', () => clearInterval(t))
  }
})
await new Promise<void>(resolve => images.listen(0, '127.0.0.1', resolve))
const imagePort = (images.address() as { port: number }).port

const seconds = (t0: number) => ((performance.now() - t0) / 1000).toFixed(1)
for (const deadline of values.deadlines.split(',').map(Number)) {
  const env = {
    REQUEST_TIMEOUT_MS: String(deadline * 1000),
    IMAGE_FETCH_ALLOW_HOSTS: '127.0.0.1',
    IMAGE_FETCH_CA_FILE: tls.certFile
  }
  const service = await startService(env)
  let empty = 0
  let answered = 0
  const send = async (path: string, body: Record<string, unknown>) => {
    const t0 = performance.now()
    try {
      const res = await post(`${service.base}${path}`, body)
      const json = JSON.parse(res.text) as { message?: string }
      if (res.status === 200) answered += path.startsWith('/v4/object') ? 0 : (body.text as unknown[]).length
      const why = res.status === 200 ? '' : ` (${String(json.message).slice(0, 40)}...)`
      return `${res.status}${why} in ${seconds(t0)} s`
    } catch (err) {
      empty++
      return `no answer (${(err as Error).message}) after ${seconds(t0)} s`
    }
  }
  console.log(`REQUEST_TIMEOUT_MS=${deadline * 1000}`)
  for (const op of OPS) {
    const body = op === 'target_sentiment' ? { text: aspectTexts, aspect: ASPECT } : { text: texts }
    console.log(`  ${op}_batch of 1,000 x 7,000 characters: ${await send(`/v4/${op}_batch`, body)}`)
  }
  for (const what of ['stall', 'drip']) {
    const answer = await send('/v4/object_recognizer', { url: `https://127.0.0.1:${imagePort}/${what}` })
    console.log(`  object_recognizer, a server that ${what}s: ${answer}`)
  }
  type Used = Record<'text' | 'image', { daily: { used: number } }>
  const usage = JSON.parse((await post(`${service.base}/usage`, {})).text) as Used
  const unanswered = usage.text.daily.used - answered + usage.image.daily.used
  console.log(`  empty replies: ${empty}; units charged without a 200: ${unanswered}`)
  await service.close()
}
images.closeAllConnections()
images.close()
rmSync(scratch, { recursive: true, force: true })
