// The load test's measurements: one endpoint driven by autocannon for the run's duration (a row of
// the table), and /health/live latency sampled while a load runs.
import autocannon from 'autocannon'

export interface Row {
  name: string
  reqPerSec: number
  unitsPerSec: number
  p50: number
  p90: number
  p99: number
  errors: number
  ratio?: number
  store?: 'embedded' | 'redis'
}

export type Drive = (
  name: string,
  url: string,
  opts: { body: string | Buffer; type: string; units: number; connections: number; path: string }
) => Promise<Row>

/** Drives an endpoint for `duration` seconds, with `origin` as the Origin header when given. */
export function driver (origin: string | undefined, duration: number): Drive {
  return async function drive (name, url, opts) {
    const headers = { 'content-type': opts.type, ...(origin === undefined ? {} : { origin }) }
    const r = await autocannon({
      url: url + opts.path,
      method: 'POST',
      headers,
      body: opts.body,
      connections: opts.connections,
      duration
    })
    const lat = r.latency as unknown as Record<string, number>
    return {
      name,
      reqPerSec: r.requests.average,
      unitsPerSec: r.requests.average * opts.units,
      p50: lat.p50 ?? 0,
      p90: lat.p90 ?? 0,
      p99: lat.p99 ?? 0,
      errors: r.errors + r.non2xx + r.timeouts
    }
  }
}

export type Live = { p50: number; p99: number; max: number; n: number }

/** /health/live latency sampled while `load` runs. */
export async function liveWhile (url: string, load: Promise<unknown>): Promise<Live> {
  const times: number[] = []
  let done = false
  void load.finally(() => {
    done = true
  })
  while (!done) {
    const t0 = performance.now()
    await fetch(`${url}/health/live`)
    times.push(performance.now() - t0)
    await new Promise(resolve => setTimeout(resolve, 20))
  }
  times.sort((a, b) => a - b)
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0
  return { p50: q(0.5), p99: q(0.99), max: times.at(-1) ?? 0, n: times.length }
}
