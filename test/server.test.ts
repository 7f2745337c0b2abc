// server.ts as users run it (npm start): no configuration, the embedded store, a development key
// printed once at start-up, and a clean exit on SIGTERM.
import t from 'tap'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { freePort, tempDir } from './helper.js'

const root = join(import.meta.dirname, '..')

t.test('starts on its defaults, prints a development key that works, exits on SIGTERM', async (t) => {
  const port = await freePort()
  const dataDir = tempDir(t)
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, MODEL_STORE: tempDir(t), LOG_LEVEL: 'warn' }
  })
  t.teardown(() => { if (proc.exitCode === null) proc.kill('SIGKILL') })
  let stderr = ''
  proc.stderr.on('data', (d) => { stderr += String(d) })
  const deadline = Date.now() + 30_000
  let live = false
  while (Date.now() < deadline && !live) {
    try { live = (await fetch(`http://127.0.0.1:${port}/health/live`)).ok } catch { await new Promise((resolve) => setTimeout(resolve, 200)) }
  }
  t.ok(live, 'listening')
  const key = /development key for this run:\n(\S+)/.exec(stderr)?.[1]
  t.ok(key, 'a development key was printed')
  t.equal(stderr.split(key ?? '-').length - 1, 1, 'printed once')
  const usage = await fetch(`http://127.0.0.1:${port}/usage`, { method: 'POST', body: new URLSearchParams({ api_key: key ?? '' }) })
  t.equal(usage.status, 200)
  t.match(await usage.json(), { key: { name: 'development' } })
  const noModel = await fetch(`http://127.0.0.1:${port}/v4/sentiment`, { method: 'POST', body: new URLSearchParams({ api_key: key ?? '', text: 'hello there' }) })
  t.equal(noModel.status, 503, 'no model in this store: 503, not a made-up score')
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)))
  proc.kill('SIGTERM')
  t.equal(await exited, 0, 'clean exit on SIGTERM')
})

t.test('a bad configuration value stops start-up with a readable message', async (t) => {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], { cwd: root, env: { PATH: process.env.PATH ?? '', PORT: 'eighty' } })
  let stderr = ''
  proc.stderr.on('data', (d) => { stderr += String(d) })
  const code = await new Promise<number | null>((resolve) => proc.once('exit', (c) => resolve(c)))
  t.equal(code, 2)
  t.match(stderr, /PORT must be a non-negative integer/)
})
