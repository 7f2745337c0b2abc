// The worker pools' default sizes: the cores this process may use, under a container's CPU quota
// where there is one, and at most 4 workers of each kind.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { ALLOCATOR_ENV, cpuBudget, loadConfig } from '../../lib/config.js'

const files =
  (f: Record<string, string>) =>
    (path: string): string | null =>
      f[path] ?? null

t.test('cpuBudget: the machine without a quota, fewer cores under one', async t => {
  t.equal(cpuBudget(files({}), 64), 64, 'no cgroup files: every core')
  t.equal(cpuBudget(files({ '/sys/fs/cgroup/cpu.max': 'max 100000\n' }), 64), 64, 'cgroup v2 without a limit')
  t.equal(cpuBudget(files({ '/sys/fs/cgroup/cpu.max': '200000 100000\n' }), 64), 2, 'cgroup v2, --cpus=2')
  t.equal(
    cpuBudget(files({ '/sys/fs/cgroup/cpu.max': '150000 100000\n' }), 64),
    2,
    'a fractional quota counts as a whole core'
  )
  t.equal(cpuBudget(files({ '/sys/fs/cgroup/cpu.max': '50000 100000\n' }), 64), 1, 'half a core is one')
  t.equal(
    cpuBudget(files({ '/sys/fs/cgroup/cpu.max': '800000 100000\n' }), 2),
    2,
    'a quota above the machine: the machine'
  )
  t.equal(
    cpuBudget(
      files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '300000\n', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n' }),
      64
    ),
    3,
    'cgroup v1 quota'
  )
  t.equal(
    cpuBudget(
      files({
        '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us': '400000\n',
        '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us': '100000\n'
      }),
      64
    ),
    4,
    'cgroup v1 under its other mount name'
  )
  t.equal(
    cpuBudget(
      files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '-1\n', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n' }),
      64
    ),
    64,
    'cgroup v1 without a limit'
  )
  t.equal(cpuBudget(files({ '/sys/fs/cgroup/cpu.max': 'garbage' }), 8), 8, 'an unreadable value: every core')
  const here = cpuBudget()
  t.ok(Number.isInteger(here) && here >= 1, `this machine: ${here} cores`)
})

t.test('TEXT_WORKERS defaults to the budget less one core, between 1 and 4; set, it is taken as given', async t => {
  const { textWorkers } = loadConfig({})
  t.equal(textWorkers, Math.max(1, Math.min(4, cpuBudget() - 1)))
  t.ok(textWorkers >= 1 && textWorkers <= 4)
  t.equal(loadConfig({ TEXT_WORKERS: '7' }).textWorkers, 7)
  t.equal(loadConfig({ TEXT_WORKERS: '0' }).textWorkers, 0)
})

t.test('every variable goes through the one schema: image workers, queue, labels, backend', async t => {
  const d = loadConfig({})
  t.equal(d.imageWorkers, Math.max(1, Math.min(4, cpuBudget())))
  t.match(d, { imageQueue: 64, objectTop: 5, tfBackend: 'auto' })
  t.match(loadConfig({ IMAGE_WORKERS: '3', IMAGE_QUEUE: '9', OBJECT_TOP: '2', TF_BACKEND: 'cpu' }), {
    imageWorkers: 3,
    imageQueue: 9,
    objectTop: 2,
    tfBackend: 'cpu'
  })
  t.throws(() => loadConfig({ TF_BACKEND: 'gpu' }), /Invalid configuration at \/tfBackend/)
  t.throws(() => loadConfig({ IMAGE_WORKERS: '0' }), /Invalid configuration at \/imageWorkers/)
  t.throws(() => loadConfig({ OBJECT_TOP: 'many' }), /OBJECT_TOP must be a non-negative integer/)
  t.equal(d.facialEmotionCrop, 'box')
  t.equal(loadConfig({ FACIAL_EMOTION_CROP: 'detector' }).facialEmotionCrop, 'detector')
  t.throws(() => loadConfig({ FACIAL_EMOTION_CROP: 'ssd' }), /Invalid configuration at \/facialEmotionCrop/)
})

t.test('no source outside lib/config.ts reads process.env', async t => {
  const { execFileSync } = await import('node:child_process')
  const root = new URL('../../', import.meta.url).pathname
  const hits = execFileSync(
    'git',
    ['grep', '-n', 'process\\.env', '--', 'lib', 'plugins', 'schemas', 'app.ts', 'server.ts', 'options.ts'],
    { cwd: root, encoding: 'utf8' }
  )
    .trim()
    .split('\n')
    .filter(l => l !== '' && !l.startsWith('lib/config.ts:'))
  t.same(hits, [])
})

t.test('CORS_ORIGINS: none by default, * or a list of origins, normalised; anything else refused', async t => {
  t.same(loadConfig({}).corsOrigins, [], 'unset: no cross-origin calls')
  t.same(loadConfig({ CORS_ORIGINS: ' ' }).corsOrigins, [])
  t.same(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins, ['*'])
  t.same(loadConfig({ CORS_ORIGINS: 'https://a.example, *' }).corsOrigins, ['*'], '* among others is any origin')
  t.same(
    loadConfig({ CORS_ORIGINS: 'https://App.Example/, http://localhost:5173,https://b.example:443' }).corsOrigins,
    ['https://app.example', 'http://localhost:5173', 'https://b.example'],
    'as browsers send Origin: lower case, no slash, no default port'
  )
  t.same(loadConfig({ CORS_ORIGINS: 'http://[::1]:8080' }).corsOrigins, ['http://[::1]:8080'])
  t.same(
    loadConfig({
      CORS_ORIGINS:
        'chrome-extension://abcdefghijklmnopabcdefghijklmnop/,moz-extension://0B1C2D3E-aaaa-bbbb-cccc-0123456789ab'
    }).corsOrigins,
    ['chrome-extension://abcdefghijklmnopabcdefghijklmnop', 'moz-extension://0b1c2d3e-aaaa-bbbb-cccc-0123456789ab'],
    'browser extensions'
  )
  for (const bad of [
    'app.example',
    'https://app.example/path',
    'https://app.example?x=1',
    'https://app.example/#top',
    'https://user@app.example',
    'null',
    'ftp://app.example',
    'file:///tmp/page.html',
    'chrome-extension://abc/popup.html',
    'https://',
    'https://a b.example'
  ]) {
    t.throws(
      () => loadConfig({ CORS_ORIGINS: bad }),
      {
        message: new RegExp(
          `^CORS_ORIGINS must be \\* or a comma-separated list of origins.*"${bad.replace(/[?.*/]/g, '\\$&')}"`
        )
      },
      bad
    )
  }
})

t.test('the allocator settings reach every start of the service: npm start and the image', async t => {
  const root = join(import.meta.dirname, '..', '..')
  const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts.start!
  const image = readFileSync(join(root, 'Dockerfile'), 'utf8')
    .split('\n')
    .filter(l => l.startsWith('ENV '))
    .join(' ')
  t.ok(Object.keys(ALLOCATOR_ENV).length > 0)
  for (const [name, value] of Object.entries(ALLOCATOR_ENV)) {
    t.match(start, new RegExp(`(^| )${name}=${value} `), `npm start sets ${name}=${value}`)
    t.match(image, new RegExp(` ${name}=${value}( |$)`), `the Dockerfile sets ${name}=${value}`)
  }
})

t.test('docs/configuration.md lists every variable the configuration reads, and no variable it does not', async t => {
  const { concurrency } = await import('../../lib/runtime/cluster.js')
  const read = new Set<string>()
  const watch = (k: string | symbol) => {
    if (typeof k === 'string') read.add(k)
  }
  const env = new Proxy(
    {},
    {
      get: (_t, k) => {
        watch(k)
      },
      has: (_t, k) => {
        watch(k)
        return false
      }
    }
  )
  loadConfig(env)
  concurrency(env)
  const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'configuration.md'), 'utf8')
  const rows = doc.split('\n').filter(l => l.startsWith('| `'))
  const namesOf = (row: string) => [...(row.split(' | ')[0] ?? '').matchAll(/`([A-Z_]+)`/g)].map(m => m[1] as string)
  const documented = new Set(rows.flatMap(namesOf))
  // read by glibc and by the tests, not by the service's configuration (their rows say so)
  const notRead = ['MALLOC_MMAP_THRESHOLD_', 'CHROMIUM_PATH']
  t.same(
    [...read].filter(v => !documented.has(v)),
    [],
    'every variable read is documented'
  )
  t.same(
    [...documented].filter(v => !read.has(v) && !notRead.includes(v)),
    [],
    'every documented variable is read'
  )
  t.ok(read.size >= 38, `${read.size} variables`)
})
