// Real service processes for the tests that kill, restart or scale them: each one on a loopback
// port, killed in the test's teardown, and a steady load that tallies what it was answered.
import type { Test } from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { FIXTURES, freePort, KEY } from './helper.js'

const root = join(import.meta.dirname, '..')

export interface Service {
  url: string
  port: number
  proc: ChildProcess
}

/** Starts test/fixtures/server.ts (or `script`) and waits until /health/live answers. */
export async function startService (
  t: Test,
  env: Record<string, string>,
  opts: { port?: number; script?: string; waitMs?: number } = {}
): Promise<Service> {
  const port = opts.port ?? (await freePort())
  const proc = spawn(process.execPath, ['--import', 'tsx', opts.script ?? 'test/fixtures/server.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      PORT: String(port),
      API_KEYS: KEY,
      MODEL_STORE: FIXTURES,
      LOG_LEVEL: 'error',
      MAX_EVENT_LOOP_DELAY_MS: '0',
      ...env
    },
    // the service's log (stdout) shown when a test asks for more than errors
    stdio: ['ignore', env.LOG_LEVEL !== undefined && env.LOG_LEVEL !== 'error' ? 'inherit' : 'ignore', 'inherit']
  })
  t.teardown(() => {
    killHard(proc)
  })
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + (opts.waitMs ?? 30_000)
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`service exited with ${proc.exitCode}`)
    try {
      if ((await fetch(`${url}/health/live`)).ok) return { url, port, proc }
    } catch {}
    await new Promise(resolve => setTimeout(resolve, 100))
  }
  throw new Error('service did not start')
}

/** SIGKILL to the process and, when it leads a process group of its own, to the group. */
export function killHard (proc: ChildProcess): void {
  if (proc.exitCode !== null || proc.signalCode !== null || proc.pid === undefined) return
  proc.kill('SIGKILL')
}

export async function exited (proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return
  await new Promise(resolve => proc.once('exit', resolve))
}

export interface Tally {
  ok: number
  refused: number
  unavailable: number
  cut: number
  other: Record<string, number>
  retryAfterMissing: number
}

export const newTally = (): Tally => ({ ok: 0, refused: 0, unavailable: 0, cut: 0, other: {}, retryAfterMissing: 0 })

export const call = (base: string, text: string, key = KEY) =>
  fetch(`${base}/v4/sentiment`, { method: 'POST', body: new URLSearchParams({ api_key: key, text }) })

/** Keeps `workers` requests in flight against `bases` (round robin) until `until()` says stop. */
export async function load (
  bases: string[],
  workers: number,
  tally: Tally,
  until: () => boolean,
  onAnswer?: (status: number, ms: number) => void
): Promise<void> {
  let next = 0
  const worker = async () => {
    while (!until()) {
      const base = bases[next++ % bases.length] as string
      const t0 = performance.now()
      let status = 0
      try {
        const r = await call(base, `steady load ${next}`)
        status = r.status
        await r.arrayBuffer()
        if (status === 503 && r.headers.get('retry-after') === null) tally.retryAfterMissing++
      } catch {
        tally.cut++
        // a refused connection (the process is gone) answers at once: do not spin
        await new Promise(resolve => setTimeout(resolve, 20))
        continue
      }
      onAnswer?.(status, performance.now() - t0)
      if (status === 200) tally.ok++
      else if (status === 403) tally.refused++
      else if (status === 503) tally.unavailable++
      else tally.other[status] = (tally.other[status] ?? 0) + 1
    }
  }
  await Promise.all(Array.from({ length: workers }, worker))
}

/** The key's daily text count, as /usage reports it (retried while the store is unavailable). */
export async function usedToday (base: string, key = KEY): Promise<number> {
  for (let i = 0; ; i++) {
    const res = await fetch(`${base}/usage`, { method: 'POST', body: new URLSearchParams({ api_key: key }) })
    if (res.ok || i >= 40) return ((await res.json()) as { text: { daily: { used: number } } }).text.daily.used
    await new Promise(resolve => setTimeout(resolve, 250))
  }
}
