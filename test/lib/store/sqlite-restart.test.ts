// The embedded store under kill -9: the service is killed ten times in the middle of a load and
// restarted on the same DATA_DIR; the count it keeps must equal the answers it gave. A request in
// flight when the process died may have been charged without its answer leaving: the count may
// exceed the 200s by at most the requests cut off, never fall below them.
import t from 'tap'
import { tempDir } from '../../helper.js'
import { exited, killHard, load, newTally, startService, usedToday } from '../../processes.js'

const LIMIT = 250
const CYCLES = 10

// eleven start-ups: about 100 s on a quiet 2-core machine, more on a busy one
t.setTimeout(240_000)

t.test(`${CYCLES} kill -9 restarts under load: no count lost, none doubled`, async t => {
  const dir = tempDir(t)
  const env = { DATA_DIR: dir, QUOTA_TEXT_DAILY: String(LIMIT) }
  const total = newTally()
  let reachedAt = -1
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const svc = await startService(t, env)
    const tally = newTally()
    let stop = false
    const running = load([svc.url], 6, tally, () => stop)
    // killed at a different point of the load each time
    await new Promise(resolve => setTimeout(resolve, 300 + cycle * 37))
    killHard(svc.proc)
    await exited(svc.proc)
    stop = true
    await running
    if (reachedAt < 0 && tally.refused > 0) reachedAt = cycle
    t.comment(
      `cycle ${cycle}: ${tally.ok} answered 200, ${tally.refused} refused 403, ${tally.cut} cut off by the kill`
    )
    total.ok += tally.ok
    total.refused += tally.refused
    total.cut += tally.cut
    total.unavailable += tally.unavailable
    for (const [k, v] of Object.entries(tally.other)) total.other[k] = (total.other[k] ?? 0) + v
  }
  const svc = await startService(t, env)
  const used = await usedToday(svc.url)
  t.comment(
    `after ${CYCLES} kills: ${total.ok} answered 200, the store counts ${used}, ${total.cut} requests cut off; quota ` +
      `first refused in cycle ${reachedAt}`
  )
  t.ok(total.ok > 0, 'requests were served')
  t.same(total.other, {}, 'no other status')
  t.equal(total.unavailable, 0, 'no 503')
  t.ok(used >= total.ok, `no count lost: ${used} >= ${total.ok}`)
  t.ok(used <= total.ok + total.cut, `none doubled: ${used} <= ${total.ok} + ${total.cut} cut off`)
  t.ok(used <= LIMIT && total.ok <= LIMIT, 'never over the quota across restarts')
  if (reachedAt >= 0) t.equal(used, LIMIT, 'once refused, the count stays at the limit after restarts')
})
