// Builds the app with the production options (serverOptions) and the fixture model store, and
// starts throwaway redis-server processes for the tests that need a real Redis.
import Fastify, { type FastifyInstance } from 'fastify'
import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import app from '../app.js'
import { serverOptions } from '../options.js'
import { loadConfig } from '../lib/config.js'
import { registerLoader } from '../lib/serving/registry.js'
import { fixtureLoader } from './fixtures/loader.js'
import type { Config } from '../schemas/env.js'

registerLoader('fixture', fixtureLoader)

export const KEY = 'test-key-0123456789'
export const FIXTURES = join(import.meta.dirname, 'fixtures', 'model-store')

type Tap = { teardown(fn: () => unknown): void }

export interface BuildOptions {
  env?: Record<string, string>
  clock?: () => Date
  logger?: ConstructorParameters<typeof Object>[0]
  config?: Partial<Config>
}

export function tempDir (t: Tap): string {
  const dir = mkdtempSync(join(tmpdir(), 'otia-test-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

export async function build (t: Tap, opts: BuildOptions = {}): Promise<FastifyInstance> {
  // load shedding off unless a test is about it (pressure.test.ts): on a busy shared host the first
  // multipart request after start-up alone has stalled the loop past the 3 s default (seen here at a
  // load average of 20 on 2 cores), and the test would get a 503 it is not about
  const config = loadConfig(
    { API_KEYS: KEY, DATA_DIR: tempDir(t), MODEL_STORE: FIXTURES, MAX_EVENT_LOOP_DELAY_MS: '0', ...opts.env },
    opts.config
  )
  const fastify = Fastify(serverOptions(config, opts.logger ?? false))
  await fastify.register(app, { config, ...(opts.clock ? { clock: opts.clock } : {}) })
  t.teardown(() => fastify.close())
  await fastify.ready()
  return fastify
}

export function form (fields: Record<string, string | string[]>): string {
  const p = new URLSearchParams()
  for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) p.append(k, x)
  return p.toString()
}

export const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

/** A multipart body by hand, so tests control every byte (boundaries, part types, filenames). */
export function multipart (
  parts: Array<{ name: string; value: string | Buffer; filename?: string; type?: string }>,
  boundary = 'XtestBoundaryX'
) {
  const chunks: Buffer[] = []
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`
    if (p.filename !== undefined) head += `; filename="${p.filename}"`
    head += '\r\n'
    if (p.type !== undefined) head += `Content-Type: ${p.type}\r\n`
    chunks.push(
      Buffer.from(head + '\r\n'),
      Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value),
      Buffer.from('\r\n')
    )
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

export async function freePort (): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

export function redisServerPath (): string | null {
  const r = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' })
  return r.status === 0 ? r.stdout.trim() : null
}

export const REDIS_MISSING =
  'redis-server is not installed: these tests need a real Redis. Install it with `apt-get install -y redis-server` ' +
    '(Debian/Ubuntu) or `brew install redis`.'

/** A throwaway redis-server on a free port, no persistence, killed at teardown. */
export class TestRedis {
  proc: ChildProcess | null = null
  constructor (
    readonly port: number,
    readonly dir: string,
    readonly persist = false
  ) {}

  get url (): string {
    return `redis://127.0.0.1:${this.port}`
  }

  /** persist: an append-only file fsynced on every write, so data survives a restart */
  static async start (t: Tap, opts: { persist?: boolean } = {}): Promise<TestRedis> {
    const bin = redisServerPath()
    if (bin === null) throw new Error(REDIS_MISSING)
    const r = new TestRedis(await freePort(), tempDir(t), opts.persist === true)
    await r.up()
    t.teardown(() => r.down())
    return r
  }

  async up (): Promise<void> {
    const bin = redisServerPath() as string
    this.proc = spawn(
      bin,
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--dir',
        this.dir,
        ...(this.persist ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'])
      ],
      { stdio: 'ignore' }
    )
    const deadline = Date.now() + 5000
    while (Date.now() < deadline) {
      const r = spawnSync('redis-cli', ['-p', String(this.port), 'ping'], { encoding: 'utf8' })
      if (r.stdout.trim() === 'PONG') return
      await new Promise(resolve => setTimeout(resolve, 50))
    }
    throw new Error(`redis-server did not start on port ${this.port}`)
  }

  async down (): Promise<void> {
    const p = this.proc
    if (p === null || p.exitCode !== null) return
    const exited = new Promise(resolve => p.once('exit', resolve))
    p.kill('SIGKILL')
    await exited
    this.proc = null
  }
}

export const MODEL_STORE = join(import.meta.dirname, '..', 'model-store')

/** True when the real model is in model-store/ (trained and committed). */
export function hasRealModel (name: string): boolean {
  return existsSync(join(MODEL_STORE, name))
}

/** The app with only the named real models (a temporary store of links), so a test loads what it needs. */
export async function buildWithRealModels (
  t: Tap,
  names: string[],
  opts: BuildOptions & { fixtures?: boolean } = {}
): Promise<FastifyInstance> {
  const store = tempDir(t)
  if (opts.fixtures === true) {
    for (const n of readdirSync(FIXTURES)) if (!names.includes(n)) symlinkSync(join(FIXTURES, n), join(store, n), 'dir')
  }
  for (const n of names) symlinkSync(join(MODEL_STORE, n), join(store, n), 'dir')
  return build(t, { ...opts, env: { MODEL_STORE: store, ...opts.env } })
}

/** The top label of a scores object. */
export function top (scores: Record<string, number>): string {
  return Object.entries(scores).sort((a, b) => b[1] - a[1])[0]![0]
}
