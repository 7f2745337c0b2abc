// The key CLI against both stores, and a running server seeing its changes.
import t from 'tap'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { build, form, FORM, tempDir, TestRedis } from '../helper.js'

const run = promisify(execFile)
const ROOT = join(import.meta.dirname, '..', '..')

async function keys (env: Record<string, string>, ...args: string[]) {
  try {
    const r = await run(process.execPath, ['--import', 'tsx', 'bin/keys.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env }
    })
    return { code: 0, stdout: r.stdout, stderr: r.stderr }
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}
const lastLine = (s: string) => s.trim().split('\n').at(-1) as string

for (const kind of ['embedded', 'redis'] as const) {
  t.test(`create, list, revoke with the ${kind} store; the server agrees`, async t => {
    const dataDir = tempDir(t)
    const env: Record<string, string> = { DATA_DIR: dataDir }
    if (kind === 'redis') env.REDIS_URL = (await TestRedis.start(t)).url
    const created = await keys(
      env,
      'create',
      '--name',
      'acme',
      '--text-daily',
      '2',
      '--image-monthly',
      '9',
      '--rate',
      '50'
    )
    t.equal(created.code, 0, created.stderr)
    t.match(
      created.stdout,
      kind === 'embedded' ? /in the embedded store's database \(.*store\.db\)/ : /in the redis store/,
      'says where the key is kept'
    )
    t.notMatch(created.stdout, /memory/, 'not "memory": the embedded store writes a file')
    const key = lastLine(created.stdout)
    t.match(key, /^[A-Za-z0-9_-]{32}$/, 'the key alone on the last line')
    if (kind === 'embedded') {
      const files = ['store.db', 'store.db-wal'].map(f => join(dataDir, f)).filter(f => existsSync(f))
      t.ok(files.length > 0, 'the key is in the SQLite file')
      for (const f of files) t.notOk(readFileSync(f).includes(key), 'only the hash is on disk')
    }
    const list = await keys(env, 'list')
    t.equal(list.code, 0)
    const listed = JSON.parse(lastLine(list.stdout)) as { id: string; name: string; plan: Record<string, unknown> }
    t.match(listed, {
      name: 'acme',
      plan: { textDaily: 2, textMonthly: null, imageDaily: null, imageMonthly: 9, rate: 50 }
    })
    t.notMatch(list.stdout, key)

    // patient on a busy machine (as the tests under test/redis are): neither a slow Redis reply nor a
    // stalled event loop may turn this call into a 503
    const app = await build(t, {
      env: { ...env, API_KEYS: '', REDIS_TIMEOUT_MS: '5000', MAX_EVENT_LOOP_DELAY_MS: '0' }
    })
    const call = () =>
      app.inject({
        method: 'POST',
        url: '/v4/sentiment',
        headers: FORM,
        payload: form({ api_key: key, text: 'nice one' })
      })
    const ok = await call()
    t.equal(ok.statusCode, 200)
    t.equal(ok.headers['x-quota-daily-remaining'], '1')

    const revoked = await keys(env, 'revoke', listed.id)
    t.equal(revoked.code, 0, revoked.stderr)
    t.match(revoked.stdout, /revoked key_/)
    await new Promise(resolve => setTimeout(resolve, 1100))
    t.equal((await call()).statusCode, 401, 'refused after revocation')
    t.equal((await keys(env, 'revoke', listed.id)).code, 1, 'revoking twice says no such key')
  })
}

t.test('revoke by the key itself; bad arguments exit 2 with usage', async t => {
  const env = { DATA_DIR: tempDir(t) }
  const key = lastLine((await keys(env, 'create', '--name', 'x')).stdout)
  t.match((await keys(env, 'revoke', key)).stdout, /revoked/)
  const bad = await keys(env, 'create', '--name', 'y', '--text-daily=-3')
  t.equal(bad.code, 2)
  t.match(bad.stderr, /--text-daily must be/)
  const ambiguous = await keys(env, 'create', '--name', 'y', '--text-daily', '-3')
  t.equal(ambiguous.code, 2)
  t.match(ambiguous.stderr, /usage:/)
  t.equal((await keys(env, 'create')).code, 2)
  t.equal((await keys(env, 'frobnicate')).code, 2)
})

t.test('--help (and create --help) print the usage and exit 0', async t => {
  const env = { DATA_DIR: tempDir(t) }
  for (const args of [['--help'], ['create', '--help']]) {
    const r = await keys(env, ...args)
    t.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`)
    t.match(r.stdout, /usage:\n {2}npm run keys -- create --name NAME/)
    t.equal(r.stderr, '')
  }
})
