import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { Value } from '@sinclair/typebox/value'
import { Config } from '../schemas/env.js'

type Env = Record<string, string | undefined>

/**
 * glibc's malloc settings every start of the service uses (`npm start`, the Dockerfile, the load
 * test and the soak), read by glibc when the process starts, so they cannot be set from inside it.
 * Pinning the mmap threshold at glibc's initial 128 KiB turns off its dynamic threshold, which
 * rises to 32 MiB once a large block is freed: the start-up's transient weight buffers then land in
 * malloc's arenas and stay there as fragmentation. Measured (docs/performance.md): start-up peak
 * 955 -> 883 MB and 60 s after ready 851 -> 793 MB, CPU per batch of 1000 texts unchanged.
 * Other C libraries (musl, macOS) ignore the variable.
 */
export const ALLOCATOR_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '131072' }

function int (env: Env, name: string, fallback: number): number {
  const v = env[name]
  if (v === undefined || v === '') return fallback
  const n = Number(v)
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${v}"`)
  return n
}
function optInt (env: Env, name: string): number | null {
  const v = env[name]
  return v === undefined || v === '' ? null : int(env, name, 0)
}
function optRate (env: Env, name: string): number | null {
  const v = env[name]
  if (v === undefined || v === '') return null
  const n = Number(v)
  if (!(n > 0)) throw new Error(`${name} must be a positive number of requests per second, got "${v}"`)
  return n
}
/**
 * HTTP processes as lib/runtime/cluster.ts concurrency counts them (checked there): WEB_CONCURRENCY, or half the
 * cores.
 */
function processesOf (env: Env): number {
  const n = Number(env.WEB_CONCURRENCY)
  return Number.isInteger(n) && n >= 1 ? n : Math.max(1, Math.floor(cpuBudget() / 2))
}
function bool (env: Env, name: string): boolean {
  return /^(1|true|yes|on)$/i.test(env[name] ?? '')
}

/**
 * CORS_ORIGINS: `*`, or comma-separated origins as browsers send them in the Origin header:
 * scheme://host[:port] for web pages, chrome-extension://<id> (and the Firefox and Safari forms)
 * for browser extensions. Each is normalised (case, default port, a trailing slash); anything else
 * is refused.
 */
export function origins (env: Env, name: string): string[] {
  const items = (env[name] ?? '')
    .split(',')
    .map(o => o.trim())
    .filter(Boolean)
  if (items.includes('*')) return ['*']
  return items.map(item => {
    // a scheme, then a host: no user, path, query or fragment; a trailing slash at most
    const m = /^(https?|chrome-extension|moz-extension|safari-web-extension):\/\/([^/?#@\\]+)\/?$/i.exec(item)
    let url: URL | null = null
    try {
      url = new URL(item)
    } catch {
      /* refused below */
    }
    if (m === null || url === null) {
      throw new Error(
        `${name} must be * or a comma-separated list of origins such as https://app.example.com ` +
          `(scheme, host and port only), got "${item}"`
      )
    }
    // the URL parser gives an origin for http(s) only
    return /^https?:$/.test(url.protocol) ? url.origin : `${m[1]!.toLowerCase()}://${m[2]!.toLowerCase()}`
  })
}

function readOrNull (path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}

/**
 * The cores this process may use: the machine's, or fewer under a container's CPU quota, which
 * availableParallelism() does not see (a `--cpus=2` container on a 64-core host would otherwise
 * start a worker per host core, each with its own copy of the models). Reads cgroup v2's cpu.max,
 * then cgroup v1's CFS quota; a fractional quota counts as a whole core.
 */
export function cpuBudget (read: (path: string) => string | null = readOrNull, cores = availableParallelism()): number {
  let quota: number | null = null
  // cgroup v2: "<quota> <period>", or "max <period>" without a limit
  const [q2, p2 = '100000'] = (read('/sys/fs/cgroup/cpu.max') ?? 'max').trim().split(/\s+/)
  if (Number(q2) > 0 && Number(p2) > 0) quota = Number(q2) / Number(p2)
  for (const dir of ['/sys/fs/cgroup/cpu', '/sys/fs/cgroup/cpu,cpuacct']) {
    if (quota !== null) break
    const q = Number(read(`${dir}/cpu.cfs_quota_us`))
    const p = Number(read(`${dir}/cpu.cfs_period_us`))
    if (q > 0 && p > 0) quota = q / p
  }
  return quota === null ? cores : Math.max(1, Math.min(cores, Math.ceil(quota)))
}

export const IMAGE_DEFAULTS = {
  // one per core, up to 4: an image takes 50-200 ms of one core, so with fewer workers than cores
  // concurrent images wait for each other (2 clients on 2 cores: object_recognizer p50 356 ms with
  // one worker, 190 ms with two), while the event loop needs little CPU per image request; each
  // worker holds its own models (about 190 MB), hence the cap on large machines
  workers: () => Math.max(1, Math.min(4, cpuBudget())),
  queue: 64,
  objectTop: 5,
  facialEmotionCrop: 'box' as const
}

/** Reads the configuration from an environment; throws a readable error on a bad value. */
/** The process environment: the one place outside tests that reads it (the supervisor hands it on to its processes). */
export function environment (): Env {
  return process.env
}

export function loadConfig (env: Env = environment(), overrides: Partial<Config> = {}): Config {
  const config: Config = {
    host: env.HOST || '0.0.0.0',
    port: int(env, 'PORT', 3000),
    redisUrl: env.REDIS_URL || null,
    apiKeys: (env.API_KEYS ?? '')
      .split(',')
      .map(k => k.trim())
      .filter(Boolean),
    defaultPlan: {
      textDaily: optInt(env, 'QUOTA_TEXT_DAILY'),
      textMonthly: optInt(env, 'QUOTA_TEXT_MONTHLY'),
      imageDaily: optInt(env, 'QUOTA_IMAGE_DAILY'),
      imageMonthly: optInt(env, 'QUOTA_IMAGE_MONTHLY'),
      rate: optRate(env, 'RATE_LIMIT')
    },
    anonymousRate: optRate(env, 'RATE_LIMIT_ANONYMOUS') ?? 20,
    adminToken: env.ADMIN_TOKEN || null,
    dashboardUrl: env.DASHBOARD_URL || '/dashboard',
    dataDir: env.DATA_DIR || 'data',
    modelStore: env.MODEL_STORE || 'model-store',
    modelsOff: (env.MODELS_OFF ?? '')
      .split(',')
      .map(m => m.trim())
      .filter(Boolean),
    logLevel: env.LOG_LEVEL || 'info',
    batchMax: int(env, 'BATCH_MAX', 1000),
    textMaxChars: int(env, 'TEXT_MAX_CHARS', 100_000),
    bodyLimit: int(env, 'BODY_LIMIT', 8 * 1024 * 1024),
    imageMaxBytes: int(env, 'IMAGE_MAX_BYTES', 10 * 1024 * 1024),
    imageMaxPixels: int(env, 'IMAGE_MAX_PIXELS', 50_000_000),
    imageFetchTimeoutMs: int(env, 'IMAGE_FETCH_TIMEOUT_MS', 10_000),
    // one core is left to the event loop (parsing, metering, answering); at most 4, as each worker
    // holds its own copy of every text model (about 350 MB) and single texts are limited by the
    // event loop, not the workers
    textWorkers: int(env, 'TEXT_WORKERS', Math.max(1, Math.min(4, cpuBudget() - 1))),
    textQueue: int(env, 'TEXT_QUEUE', 4096),
    // the text encoder runs on its own threads in every HTTP process: the cores shared among them
    encoderThreads: Math.max(1, int(env, 'ENCODER_THREADS', Math.min(4, Math.floor(cpuBudget() / processesOf(env))))),
    encoderCache: int(env, 'ENCODER_CACHE', 4096),
    imageWorkers: int(env, 'IMAGE_WORKERS', IMAGE_DEFAULTS.workers()),
    imageQueue: int(env, 'IMAGE_QUEUE', IMAGE_DEFAULTS.queue),
    objectTop: int(env, 'OBJECT_TOP', IMAGE_DEFAULTS.objectTop),
    facialEmotionCrop: (env.FACIAL_EMOTION_CROP || IMAGE_DEFAULTS.facialEmotionCrop) as Config['facialEmotionCrop'],
    tfBackend: (env.TF_BACKEND || 'auto') as Config['tfBackend'],
    // a mean loop delay of 1 s is reached by an ordinarily busy machine (shared cores, a burst of
    // batches) that still answers within seconds; 3 s is a stall worth shedding
    maxEventLoopDelayMs: int(env, 'MAX_EVENT_LOOP_DELAY_MS', 3000),
    maxHeapBytes: int(env, 'MAX_HEAP_BYTES', 0),
    imageFetchAllowHosts: (env.IMAGE_FETCH_ALLOW_HOSTS ?? '')
      .split(',')
      .map(h => h.trim().toLowerCase())
      .filter(Boolean),
    imageFetchCaFile: env.IMAGE_FETCH_CA_FILE || null,
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 30_000),
    failOpen: bool(env, 'FAIL_OPEN'),
    trustProxy: bool(env, 'TRUST_PROXY'),
    redisTimeoutMs: int(env, 'REDIS_TIMEOUT_MS', 500),
    corsOrigins: origins(env, 'CORS_ORIGINS'),
    ...overrides
  }
  if (!Value.Check(Config, config)) {
    const e = [...Value.Errors(Config, config)][0]
    throw new Error(`Invalid configuration at ${e?.path}: ${e?.message}`)
  }
  return config
}
