// The load test's report: the markdown table of the rows with the liveness and memory lines under
// it, and the same figures as JSON.
import { writeFileSync } from 'node:fs'
import type { Live, Row } from './requests.js'

export interface Results {
  duration: number
  /** the --url service, undefined when the service was started here */
  url: string | undefined
  /** the Redis-store service and its store's address, when there is one */
  redisService: string | undefined
  redisUrl: string | undefined
  rows: Row[]
  live: Live | null
  liveNer: Live | null
  peak: number | null
  redisPeak: number | null
}

const ms = (x: number) => x.toFixed(0).padStart(6)

function tableRow (r: Row): string {
  const ofCeiling = r.ratio === undefined ? '' : (100 * r.ratio).toFixed(0) + '%'
  return (
    `| ${r.name} | ${r.reqPerSec.toFixed(0)} | ${r.unitsPerSec.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p90)} | ` +
    `${ms(r.p99)} | ${r.errors} | ${ofCeiling} |`
  )
}

const probes = (l: Live) =>
  `p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, max ${l.max.toFixed(1)} ms (${l.n} probes)`

/** The report's lines, as printed. */
export function reportLines (res: Results): string[] {
  const redisStore =
    res.redisService !== undefined
      ? '; text endpoints also on a second service with the Redis store at ' + (res.redisUrl as string)
      : ''
  const service = res.url ?? 'started here (embedded store' + redisStore + ')'
  const lines = [
    `Load test ${new Date().toISOString().slice(0, 10)}, ${res.duration} s per endpoint, service ${service}`,
    '| endpoint | req/s | texts or images/s | p50 ms | p90 ms | p99 ms | errors | of ceiling |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...res.rows.map(tableRow)
  ]
  if (res.live !== null) {
    lines.push('', `/health/live while 8 image requests are in flight: ${probes(res.live)}`)
  }
  if (res.liveNer !== null) {
    lines.push(`/health/live while 1000-text ner batches run: ${probes(res.liveNer)}`)
  }
  if (res.peak !== null) {
    lines.push(
      `service peak RSS: ${res.peak} MB (WEB_CONCURRENCY ${process.env.WEB_CONCURRENCY ?? 'default'}; ` +
        'summed over its processes)'
    )
  }
  if (res.redisPeak !== null) lines.push(`Redis-store service peak RSS: ${res.redisPeak} MB`)
  return lines
}

/** The figures as JSON, written to `path`. */
export function writeJson (path: string, res: Results): void {
  writeFileSync(
    path,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        duration: res.duration,
        rows: res.rows,
        live: res.live,
        liveNer: res.liveNer,
        peakRssMb: res.peak,
        ...(res.redisService !== undefined ? { redisPeakRssMb: res.redisPeak } : {})
      },
      null,
      2
    )
  )
}
