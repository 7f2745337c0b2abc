// WEB_CONCURRENCY: how many HTTP processes by default, and a real primary with two processes on
// one SQLite store: the quota holds across them, a killed process is replaced, SIGTERM stops all.
import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { concurrency } from '../../../lib/runtime/cluster.js'
import { tempDir } from '../../helper.js'
import { call, exited, startService, usedToday } from '../../processes.js'

t.test('processes and text workers from the cores', async t => {
  t.same(concurrency({}, 1), { processes: 1, textWorkers: 1 })
  t.same(concurrency({}, 2), { processes: 1, textWorkers: 1 }, 'two cores: one process, as before')
  t.same(concurrency({}, 4), { processes: 2, textWorkers: 1 })
  t.same(concurrency({}, 16), { processes: 8, textWorkers: 1 })
  t.same(concurrency({ WEB_CONCURRENCY: '2' }, 16), { processes: 2, textWorkers: 4 }, 'at most 4 text workers')
  t.same(concurrency({ WEB_CONCURRENCY: '3' }, 2), { processes: 3, textWorkers: 1 })
  t.same(concurrency({ WEB_CONCURRENCY: '' }, 2), { processes: 1, textWorkers: 1 }, 'empty is unset')
  for (const bad of ['0', '-1', 'two', '1.5', '257']) {
    t.throws(
      () => concurrency({ WEB_CONCURRENCY: bad }, 4),
      /WEB_CONCURRENCY must be an integer from 1 to 256/,
      `"${bad}" refused`
    )
  }
})

/** The primary's HTTP processes: its child processes but tsx's esbuild service, which a cold compile
 * cache starts beside them. */
function children (pid: number): number[] {
  const out: number[] = []
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8')
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) continue
      if (readFileSync(`/proc/${d}/cmdline`, 'utf8').includes('esbuild')) continue
      out.push(Number(d))
    } catch {}
  }
  return out
}

async function waitFor (what: string | (() => string), ok: () => boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`)
    await new Promise(resolve => setTimeout(resolve, 100))
  }
}

t.test('two HTTP processes on one SQLite store', async t => {
  // two processes loading their models at once on a busy 2-core host: allowed a minute and a half
  const svc = await startService(
    t,
    { DATA_DIR: tempDir(t), WEB_CONCURRENCY: '2', QUOTA_TEXT_DAILY: '100' },
    { waitMs: 90_000 }
  )
  const pid = svc.proc.pid as number
  // the second is forked once the first listens; on a loaded host its start may take a while
  await waitFor(
    () => `two HTTP processes (seen: ${children(pid).length})`,
    () => children(pid).length === 2,
    90_000
  )
  const res = await Promise.all(
    Array.from({ length: 150 }, async (_, i) => {
      const r = await call(svc.url, `text ${i}`)
      await r.arrayBuffer()
      return r.status
    })
  )
  t.equal(res.filter(s => s === 200).length, 100, 'exactly the quota served across both processes')
  t.equal(res.filter(s => s === 403).length, 50, 'the rest refused')
  t.equal(await usedToday(svc.url), 100)

  const [victim] = children(pid) as [number]
  process.kill(victim, 'SIGKILL')
  await waitFor('a replacement process', () => {
    const c = children(pid)
    return c.length === 2 && !c.includes(victim)
  })
  // the processes start one after the other: until the second listens, the first alone answers,
  // and when that is the one killed, connections are refused until its replacement listens
  const deadline = Date.now() + 90_000
  while (
    Date.now() < deadline &&
    !(await fetch(`${svc.url}/health/live`).then(
      r => r.ok,
      () => false
    ))
  ) {
    await new Promise(resolve => setTimeout(resolve, 200))
  }
  let ok = 0
  for (let i = 0; i < 20; i++) if ((await fetch(`${svc.url}/health/live`)).ok) ok++
  t.equal(ok, 20, 'still answering after one process was killed')

  const before = children(pid)
  svc.proc.kill('SIGTERM')
  await exited(svc.proc)
  t.equal(svc.proc.exitCode, 0, 'the primary exits cleanly on SIGTERM')
  t.same(
    before.filter(p => {
      try {
        process.kill(p, 0)
        return true
      } catch {
        return false
      }
    }),
    [],
    'and its processes with it'
  )
})
