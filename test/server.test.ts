// server.ts as users run it (npm start): no configuration, the embedded store, a development key
// printed once at each start-up and the same after a restart, and a clean exit on SIGTERM.
import t, { type Test as Tap } from 'tap'
import { execFileSync, spawn } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { freePort, tempDir } from './helper.js'

const root = join(import.meta.dirname, '..')

/** npm start on a data folder: the process, what it printed so far, and its port once it listens */
async function start (t: Tap, dataDir: string, env: Record<string, string> = {}) {
  const port = await freePort()
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      MODEL_STORE: tempDir(t),
      LOG_LEVEL: 'warn',
      ...env
    }
  })
  t.teardown(() => {
    if (proc.exitCode === null) proc.kill('SIGKILL')
  })
  const out = { stderr: '' }
  proc.stderr.on('data', d => {
    out.stderr += String(d)
  })
  const deadline = Date.now() + 30_000
  let live = false
  while (Date.now() < deadline && !live) {
    try {
      live = (await fetch(`http://127.0.0.1:${port}/health/live`)).ok
    } catch {
      await new Promise(resolve => setTimeout(resolve, 200))
    }
  }
  t.ok(live, 'listening')
  const stop = async () => {
    const exited = new Promise<number | null>(resolve => proc.once('exit', code => resolve(code)))
    proc.kill('SIGTERM')
    return await exited
  }
  return { port, out, stop }
}

const usageOf = (port: number, key: string | undefined) =>
  fetch(`http://127.0.0.1:${port}/usage`, { method: 'POST', body: new URLSearchParams({ api_key: key ?? '' }) })
const printedKey = (stderr: string) => /the development key \(kept in .*dev-key\):\n(\S+)/.exec(stderr)?.[1]

t.test('starts on its defaults, prints a development key that works, exits on SIGTERM', async t => {
  const dataDir = tempDir(t)
  const { port, out, stop } = await start(t, dataDir)
  const key = printedKey(out.stderr)
  t.ok(key, 'a development key was printed')
  t.equal(out.stderr.split(key ?? '-').length - 1, 1, 'printed once')
  t.equal(readFileSync(join(dataDir, 'dev-key'), 'utf8').trim(), key, 'kept in DATA_DIR/dev-key')
  t.equal(statSync(join(dataDir, 'dev-key')).mode & 0o077, 0, 'readable by its owner only')
  const usage = await fetch(`http://127.0.0.1:${port}/usage`, {
    method: 'POST',
    body: new URLSearchParams({ api_key: key ?? '' })
  })
  t.equal(usage.status, 200)
  t.match(await usage.json(), { key: { name: 'development' } })
  const noModel = await fetch(`http://127.0.0.1:${port}/v4/sentiment`, {
    method: 'POST',
    body: new URLSearchParams({ api_key: key ?? '', text: 'hello there' })
  })
  t.equal(noModel.status, 503, 'no model in this store: 503, not a made-up score')
  t.equal(await stop(), 0, 'clean exit on SIGTERM')

  const again = await start(t, dataDir, { WEB_CONCURRENCY: '2' })
  const same = 'the same key after a restart, printed again (by the supervisor of two processes)'
  t.equal(printedKey(again.out.stderr), key, same)
  t.equal(again.out.stderr.split(key ?? '-').length - 1, 1, 'once')
  for (let i = 0; i < 4; i++) {
    const res = await usageOf(again.port, key)
    t.equal(res.status, 200, 'it works in every process')
  }
  t.equal(await again.stop(), 0)

  const keysEnv = { PATH: process.env.PATH ?? '', DATA_DIR: dataDir }
  const create = ['--import', 'tsx', 'bin/keys.ts', 'create', '--name', 'shop']
  execFileSync(process.execPath, create, { cwd: root, env: keysEnv, stdio: 'ignore' })
  const third = await start(t, dataDir)
  const why = /1 key\(s\) in the store and no API_KEYS: the development key is not accepted/
  t.match(third.out.stderr, why, 'once a key is stored, start-up says why no key is printed')
  const refused = await usageOf(third.port, key)
  t.equal(refused.status, 401)
  t.equal(await third.stop(), 0)
})

t.test('a bad configuration value stops start-up with a readable message', async t => {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', PORT: 'eighty' }
  })
  let stderr = ''
  proc.stderr.on('data', d => {
    stderr += String(d)
  })
  const code = await new Promise<number | null>(resolve => proc.once('exit', c => resolve(c)))
  t.equal(code, 2)
  t.match(stderr, /PORT must be a non-negative integer/)
})
