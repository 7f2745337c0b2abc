// A Redis primary killed (kill -9) in the middle of a load, with Sentinel and with Redis Cluster:
// while no primary exists the service answers 503 with Retry-After, each within a second; it
// recovers by itself once a replica is promoted; and the count equals the 200s answered, exactly
// (charges answered 503 are undone in the background; replication is asynchronous, so a charge
// the replica had not received would be lost: this shows none was, on loopback).
import t, { type Test } from 'tap'
import { hashKey } from '../../lib/keys.js'
import { KEY, redisServerPath } from '../helper.js'
import { load, newTally, startService, usedToday } from '../processes.js'
import { clusterSetup, masterOf, sentinelPrimary, sentinelSetup, until, type Node } from './topology.js'

const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

async function failover (t: Test, url: string, killPrimary: () => Node, promoted: () => boolean): Promise<void> {
  const svc = await startService(t, { REDIS_URL: url }, { waitMs: 60_000 })
  await until('the service ready', () => true)
  for (let i = 0; i < 100 && (await fetch(`${svc.url}/health/ready`)).status !== 200; i++) await sleep(200)
  const tally = newTally()
  const answers: Array<{ at: number; status: number; ms: number }> = []
  let stop = false
  const running = load(
    [svc.url],
    4,
    tally,
    () => stop,
    (status, ms) => answers.push({ at: performance.now(), status, ms })
  )
  await sleep(1500)
  const victim = killPrimary()
  const killedAt = performance.now()
  await until('a replica promoted', promoted, 30_000)
  await until(
    'answers of 200 again',
    () => answers.some(a => a.at > killedAt && a.status === 200 && answers.some(b => b.status === 503 && b.at < a.at)),
    30_000
  ).catch(() => {})
  await sleep(1000)
  stop = true
  await running
  const after = answers.filter(a => a.at > killedAt)
  const unavailable = after.filter(a => a.status === 503)
  const firstOk = after.find(a => a.status === 200 && a.at > (unavailable[0]?.at ?? Infinity))
  t.comment(
    `primary ${victim.port} killed: ${tally.ok} answered 200, ${tally.unavailable} answered 503; slowest 503 ` +
      `${Math.max(0, ...unavailable.map(a => a.ms)).toFixed(0)} ms; first 503 ` +
      `${((unavailable[0]?.at ?? killedAt) - killedAt).toFixed(0)} ms after the kill; 200s again ` +
      `${((firstOk?.at ?? killedAt) - killedAt).toFixed(0)} ms after it`
  )
  t.ok(tally.ok > 0, 'requests served')
  t.ok(unavailable.length > 0, '503 while no primary existed')
  t.ok(
    unavailable.every(a => a.ms < 1000),
    'each 503 within a second'
  )
  t.equal(tally.retryAfterMissing, 0, 'every 503 with Retry-After')
  t.same(tally.other, {}, 'no other status')
  t.equal(tally.cut, 0, 'no connection cut')
  t.ok(firstOk !== undefined, 'served again after the failover')
  // charges answered 503 are undone in the background, once the new primary answers
  let used = -1
  for (let i = 0; i < 40; i++) {
    used = await usedToday(svc.url)
    if (used === tally.ok) break
    await sleep(500)
  }
  t.equal(used, tally.ok, `the count equals the 200s answered (${used})`)
}

t.test(
  'Sentinel: the primary killed mid-load',
  { skip: redisServerPath() === null ? 'redis-server is not installed' : false },
  async t => {
    const { primary, replica, sentinels, url } = await sentinelSetup(t)
    await failover(
      t,
      url,
      () => {
        primary.proc.kill('SIGKILL')
        return primary
      },
      () => sentinelPrimary(sentinels[0]!) === replica.port
    )
  }
)

t.test(
  "Cluster: the master of the key's slot killed mid-load",
  { skip: redisServerPath() === null ? 'redis-server is not installed' : false },
  async t => {
    const { nodes, url } = await clusterSetup(t)
    const id = `env_${hashKey(KEY).slice(0, 10)}`
    const port = masterOf(nodes, id)
    const victim = nodes.find(n => n.port === port) as Node
    await failover(
      t,
      url,
      () => {
        victim.proc.kill('SIGKILL')
        return victim
      },
      () => {
        try {
          return (
            masterOf(
              nodes.filter(n => n !== victim),
              id
            ) !== port
          )
        } catch {
          return false
        }
      }
    )
  }
)
