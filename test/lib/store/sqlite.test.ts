// The embedded SQLite store: counts survive a reopen (a restart), charges are atomic across
// processes sharing the file, and the key file of the earlier embedded store is taken over.
import t from 'tap'
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { SqliteStore } from '../../../lib/store/sqlite.js'
import type { KeyRecord } from '../../../lib/store/types.js'
import { tempDir } from '../../helper.js'

const root = join(import.meta.dirname, '..', '..', '..')
const limits = { daily: 5, monthly: 7 }
const plan = { textDaily: 5, textMonthly: 7, imageDaily: null, imageMonthly: null, rate: null }
const record = (id: string, hash: string): KeyRecord => ({
  id,
  name: id,
  hash,
  plan,
  created: '2026-01-01T00:00:00.000Z',
  source: 'store'
})

t.test('counts, refunds, history and keys survive closing and reopening', async t => {
  const dir = tempDir(t)
  // today (counters a day past their period are swept when the store opens)
  const today = new Date().toISOString().slice(0, 10)
  const at = new Date(`${today}T12:00:00Z`)
  const tomorrow = new Date(at.getTime() + 86_400_000)
  let s = new SqliteStore(dir)
  await s.putKey(record('key_a', 'a'.repeat(64)))
  t.match(await s.charge('key_a', 'text', 2, limits, at, 'sentiment'), {
    ok: true,
    daily: { used: 2, remaining: 3 },
    monthly: { used: 2, remaining: 5 }
  })
  t.match(
    await s.charge('key_a', 'text', 4, limits, at, 'emotion'),
    { ok: false, refusedBy: 'daily', daily: { used: 2 } },
    'over the day: nothing charged'
  )
  await s.refund('key_a', 'text', 1, at, 'sentiment')
  await s.close()
  s = new SqliteStore(dir)
  t.teardown(() => s.close())
  t.match(
    await s.usage('key_a', 'text', limits, at),
    {
      daily: { used: 1, remaining: 4, reset: `${tomorrow.toISOString().slice(0, 10)}T00:00:00.000Z` },
      monthly: { used: 1 }
    },
    'the count after a reopen'
  )
  t.same(await s.history('key_a', at, 7), [{ day: today, op: 'sentiment', units: 1 }])
  const sameMonth = tomorrow.getUTCMonth() === at.getUTCMonth()
  t.match(
    await s.usage('key_a', 'text', limits, tomorrow),
    { daily: { used: 0 }, monthly: { used: sameMonth ? 1 : 0 } },
    'a new day starts from zero'
  )
  t.match(await s.usage('key_a', 'image', limits, at), { daily: { used: 0 } }, 'image counted apart')
  t.equal((await s.getKeyByHash('a'.repeat(64)))?.id, 'key_a')
  t.equal(await s.getKeyByHash('b'.repeat(64)), null)
  t.equal((await s.listKeys()).length, 1)
  t.equal((await s.deleteKey('key_a'))?.hash, 'a'.repeat(64), 'deleted by id')
  t.equal(await s.deleteKey('key_a'), null)
})

t.test('rate windows: counted, refused over max without a charge, restarted after the window', async t => {
  const s = new SqliteStore(tempDir(t))
  t.teardown(() => s.close())
  const rate = { key: 'k:key_r', windowMs: 300, max: 2 }
  const now = new Date()
  t.match(await s.meter(rate, 'key_r', 'text', 1, limits, now, 'sentiment'), {
    rate: { current: 1 },
    limited: false,
    charge: { ok: true }
  })
  t.match(await s.meter(rate, 'key_r', 'text', 1, limits, now, 'sentiment'), { rate: { current: 2 }, limited: false })
  const over = await s.meter(rate, 'key_r', 'text', 1, limits, now, 'sentiment')
  t.match(over, { rate: { current: 3 }, limited: true, charge: null })
  t.ok(over.rate !== null && over.rate.ttl > 0 && over.rate.ttl <= 300, 'time left in the window')
  t.match(await s.usage('key_r', 'text', limits, now), { daily: { used: 2 } }, 'the limited one was not charged')
  await new Promise(resolve => setTimeout(resolve, 350))
  t.match(await s.hit('k:key_r', 300), { current: 1 }, 'a new window')
  await s.sweep(Date.now() + 1000)
  t.match(await s.hit('k:key_r', 300), { current: 1 }, 'swept windows start again')
})

t.test(
  'charges asked for in one turn commit together, each seeing the ones before it; a failed commit fails them all',
  async t => {
    const dir = tempDir(t)
    const s = new SqliteStore(dir, { busyMs: 50 })
    t.teardown(() => s.close())
    const now = new Date()
    const all = await Promise.all(
      Array.from({ length: 7 }, () => s.charge('key_g', 'text', 1, limits, now, 'sentiment'))
    )
    t.same(
      all.map(r => r.ok),
      [true, true, true, true, true, false, false],
      'the daily limit of 5, in the order asked'
    )
    t.same(
      all.map(r => r.daily.used),
      [1, 2, 3, 4, 5, 5, 5]
    )
    // one commit for the group: the write-ahead log grows by one commit's pages, not by twenty
    const db0 = (
      s as unknown as { db: { exec(sql: string): void; prepare(sql: string): { raw(): { get(): unknown[] } } } }
    ).db
    const walFrames = (): number => db0.prepare('PRAGMA wal_checkpoint(PASSIVE)').raw().get()[1] as number
    const big = { daily: 1000, monthly: 1000 }
    db0.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    await Promise.all(Array.from({ length: 20 }, () => s.charge('key_w', 'text', 1, big, now, 'sentiment')))
    const grouped = walFrames()
    db0.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    for (let i = 0; i < 20; i++) await s.charge('key_w', 'text', 1, big, now, 'sentiment')
    const oneByOne = walFrames()
    t.ok(grouped * 5 < oneByOne, `20 charges in one turn wrote ${grouped} log frames, one per turn ${oneByOne}`)
    // another connection holds the write lock: the whole group is refused, and nothing is charged
    const other = new SqliteStore(dir)
    const db = (other as unknown as { db: { exec(sql: string): void } }).db
    db.exec('BEGIN IMMEDIATE')
    const group = await Promise.allSettled([
      s.charge('key_h', 'text', 1, limits, now, 'sentiment'),
      s.charge('key_h', 'text', 1, limits, now, 'sentiment')
    ])
    t.same(
      group.map(r => r.status),
      ['rejected', 'rejected'],
      'both charges of the group fail while the file is locked'
    )
    db.exec('ROLLBACK')
    await other.close()
    t.match(
      await s.usage('key_h', 'text', limits, now),
      { daily: { used: 0 } },
      'nothing of the failed group was charged'
    )
    t.match(
      await s.charge('key_h', 'text', 1, limits, now, 'sentiment'),
      { ok: true, daily: { used: 1 } },
      'the next turn commits again'
    )
  }
)

t.test(
  'a group stays open for the turns after its first write: charges asked for in them join its commit, and none ' +
    'settles before it',
  async t => {
    const dir = tempDir(t)
    const now = new Date()
    const big = { daily: 1000, monthly: 1000 }
    const turn = () => new Promise(resolve => setImmediate(resolve))
    // log frames written by three charges, each asked for one turn after the one before
    const spread = async (s: SqliteStore, key: string): Promise<{ frames: number; settledEarly: boolean }> => {
      const db = (
        s as unknown as { db: { exec(sql: string): void; prepare(sql: string): { raw(): { get(): unknown[] } } } }
      ).db
      db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
      let settled = 0
      const first = s.charge(key, 'text', 1, big, now, 'sentiment').then(r => {
        settled++
        return r
      })
      await turn()
      const second = s.charge(key, 'text', 1, big, now, 'sentiment').then(r => {
        settled++
        return r
      })
      await turn()
      const settledEarly = settled > 0
      const third = s.charge(key, 'text', 1, big, now, 'sentiment')
      t.same(
        (await Promise.all([first, second, third])).map(r => r.daily.used),
        [1, 2, 3],
        'charged in the order asked'
      )
      return { frames: db.prepare('PRAGMA wal_checkpoint(PASSIVE)').raw().get()[1] as number, settledEarly }
    }
    const grouped = new SqliteStore(join(dir, 'a'))
    t.teardown(() => grouped.close())
    const g = await spread(grouped, 'key_t')
    t.notOk(g.settledEarly, 'no charge of the open group settled before its commit')
    const eager = new SqliteStore(join(dir, 'b'), { gatherTurns: 0 })
    t.teardown(() => eager.close())
    const e = await spread(eager, 'key_t')
    t.ok(e.settledEarly, 'with no turns to gather, the first charge commits alone')
    t.ok(
      g.frames < e.frames,
      `three charges over three turns wrote ${g.frames} log frames in one group, ${e.frames} in more than one`
    )
  }
)

t.test('while another process holds the write lock, charges wait for it without blocking the event loop', async t => {
  const dir = tempDir(t)
  const s = new SqliteStore(dir, { busyMs: 5000 })
  t.teardown(() => s.close())
  const other = new SqliteStore(dir)
  const db = (other as unknown as { db: { exec(sql: string): void } }).db
  db.exec('BEGIN IMMEDIATE')
  const now = new Date()
  const charges = Promise.all([
    s.charge('key_l', 'text', 1, limits, now, 'sentiment'),
    s.charge('key_l', 'text', 1, limits, now, 'sentiment')
  ])
  // timers keep firing while the charges wait: the thread is free
  let ticks = 0
  const timer = setInterval(() => {
    ticks++
  }, 5)
  await new Promise(resolve => setTimeout(resolve, 100))
  clearInterval(timer)
  t.ok(ticks >= 5, `${ticks} timer ticks while the lock was held`)
  const late = s.charge('key_l', 'text', 1, limits, now, 'sentiment')
  db.exec('COMMIT')
  await other.close()
  t.same(
    (await charges).map(r => r.daily.used),
    [1, 2],
    'granted once the lock is free'
  )
  t.match(await late, { ok: true, daily: { used: 3 } }, 'a charge asked for meanwhile joins them')
})

t.test('keys of the earlier key file are imported once', async t => {
  const dir = tempDir(t)
  writeFileSync(join(dir, 'keys.json'), JSON.stringify({ keys: [record('key_old', 'c'.repeat(64))] }))
  let s = new SqliteStore(dir)
  t.equal((await s.getKeyByHash('c'.repeat(64)))?.id, 'key_old')
  await s.deleteKey('key_old')
  await s.close()
  s = new SqliteStore(dir)
  t.teardown(() => s.close())
  t.equal(await s.getKeyByHash('c'.repeat(64)), null, 'a revoked key does not come back from the old file')
})

t.test('four processes charging one key at once: exactly the limit granted', async t => {
  const dir = tempDir(t)
  new SqliteStore(dir).close()
  const run = () =>
    new Promise<number>((resolve, reject) => {
      const p = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/sqlite-charger.ts', dir, '300', '1000'], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit']
      })
      t.teardown(() => {
        p.kill('SIGKILL')
      })
      let out = ''
      p.stdout.on('data', (d: Buffer) => {
        out += d.toString()
      })
      p.on('exit', code =>
        code === 0 ? resolve(Number(out.trim())) : reject(new Error(`charger exited ${String(code)}`))
      )
    })
  const granted = await Promise.all([run(), run(), run(), run()])
  t.equal(
    granted.reduce((a, b) => a + b, 0),
    1000,
    `1200 attempts on a limit of 1000: 1000 granted (${granted.join(' + ')})`
  )
  const s = new SqliteStore(dir)
  t.teardown(() => s.close())
  t.match(await s.usage('shared', 'text', { daily: 1000, monthly: null }, new Date()), { daily: { used: 1000 } })
  t.match(await s.hit('k:shared', 60_000), { current: 1201 }, 'every attempt counted in the rate window')
})
