// The load test's processes: the service (or the bare route) started on a free port and waited
// for, a throwaway redis-server, and the peak memory of a process and its descendants.
import { Redis } from 'ioredis'
import { tmpdir } from 'node:os'
import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { ALLOCATOR_ENV } from '../../lib/config.js'

/** The project's root, where the scripts are started. */
export const root = join(import.meta.dirname, '..', '..')

async function freePort (): Promise<number> {
  return new Promise(resolve => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port
      s.close(() => resolve(p))
    })
  })
}

export type Started = { proc: ChildProcess; url: string }

export async function start (script: string, env: Record<string, string>): Promise<Started> {
  const port = await freePort()
  // the store is chosen here, not inherited: REDIS_URL from the caller names the Redis run's store
  const { REDIS_URL: _, ...inherited } = process.env
  const proc = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: root,
    env: { ...ALLOCATOR_ENV, ...inherited, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit']
  })
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}/health/ready`)).status < 500 || script.includes('bare')) {
        const r = await fetch(`${url}/health/live`).catch(() => null)
        if (r !== null || script.includes('bare')) break
      }
    } catch {}
    await new Promise(resolve => setTimeout(resolve, 200))
  }
  return { proc, url }
}

// the service's peak RSS: its own, plus its HTTP processes' under WEB_CONCURRENCY (text workers are
// threads, counted in their process)
export function peakRssMb (pid: number | undefined): number | null {
  if (pid === undefined) return null
  let kb = 0
  for (const p of [pid, ...descendants(pid)]) {
    try {
      kb += Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0)
    } catch {}
  }
  return kb === 0 ? null : Math.round(kb / 1024)
}

function descendants (pid: number): number[] {
  const out: number[] = []
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8')
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) {
        out.push(Number(d), ...descendants(Number(d)))
      }
    } catch {}
  }
  return out
}

/** A throwaway redis-server on a free port, without persistence; null if it is not installed. */
export async function startRedis (): Promise<Started | null> {
  const port = await freePort()
  // nothing is written to disk: no snapshots, no append-only file
  const proc = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { cwd: tmpdir(), stdio: 'ignore' }
  )
  const missing = new Promise<null>(resolve => proc.once('error', () => resolve(null)))
  const url = `redis://127.0.0.1:${port}`
  const ready = (async () => {
    for (let i = 0; i < 100; i++) {
      const c = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 })
      c.on('error', () => {})
      try {
        await c.connect()
        await c.ping()
        return { proc, url }
      } catch {
      } finally {
        c.disconnect()
      }
      await new Promise(resolve => setTimeout(resolve, 50))
    }
    return null
  })()
  return Promise.race([ready, missing])
}
