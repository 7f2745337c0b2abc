// node --import tsx bench/batch-cost.ts [--n 100] [--only keywords,ner]: what a batch of N texts costs
// against N single requests, for every text operation with a batch path, through HTTP on this
// machine (the real model store, the production options and defaults). Short texts are the
// project's everyday sentences; long ones are 7,000 characters made of them. Prints per-text
// milliseconds and the batch/singles ratio (at most about 1 is the target: a batch never costs
// more than its texts one by one), and keywords_batch of 100 long texts (the median of five) against
// its 1.5 s target.
// Asserts nothing.
import { parseArgs } from 'node:util'
import { ASPECT, chosen, long, post, short, startService, withAspect } from './service.js'

const options = { n: { type: 'string', default: '100' }, only: { type: 'string', default: '' } } as const
const { values } = parseArgs({ options })
const N = Number(values.n)
const OPS = chosen(values.only)
const service = await startService({ LOG_LEVEL: 'warn', MAX_EVENT_LOOP_DELAY_MS: '0' })

/** Milliseconds to a 200 from /v4/<op>. */
async function timed (op: string, body: Record<string, unknown>): Promise<number> {
  const t0 = performance.now()
  const res = await post(`${service.base}/v4/${op}`, body)
  if (res.status !== 200) throw new Error(`${op}: ${res.status} ${res.text.slice(0, 200)}`)
  return performance.now() - t0
}
const fields = (op: string) => (op === 'target_sentiment' ? { aspect: ASPECT } : {})

async function cost (op: string, of: (i: number) => string): Promise<{ single: number; batch: number }> {
  const text = op === 'target_sentiment' ? (i: number) => withAspect(of(i)) : of
  const texts = (n: number, from: number) => Array.from({ length: n }, (_, i) => text(i + from))
  await timed(`${op}_batch`, { text: texts(10, 500), ...fields(op) })
  let singles = 0
  const ones = Math.min(N, 30)
  for (let i = 0; i < ones; i++) singles += await timed(op, { text: text(i), ...fields(op) })
  const batch = await timed(`${op}_batch`, { text: texts(N, 1000), ...fields(op) })
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
  const row = (c: { single: number; batch: number }) => {
    const ratio = (c.batch / c.single).toFixed(2)
    return `${c.single.toFixed(2).padStart(7)} ${c.batch.toFixed(2).padStart(6)} ${ratio.padStart(6)}`
  }
  console.log(`${op.padEnd(20)} ${row(s)}              ${row(l)}`)
}
if (OPS.includes('keywords')) {
  // five batches of other texts each, the median
  const runs: number[] = []
  for (let r = 0; r < 5; r++) {
    runs.push(await timed('keywords_batch', { text: Array.from({ length: 100 }, (_, i) => long(i + 2000 + 100 * r)) }))
  }
  const s = runs.map(ms => (ms / 1000).toFixed(2))
  const median = [...runs].sort((a, b) => a - b)[2] as number
  const of = `median ${(median / 1000).toFixed(2)} s of ${s.join(', ')}`
  console.log(`keywords_batch of 100 texts of 7,000 characters: ${of} (target 1.5 s)`)
}
await service.close()
