// The README's examples, run against the service built in-process with the real model store.
//
//   npm run readme-examples            rewrites the answers shown in README.md
//   npm run readme-examples -- --check exits 1 when a shown answer differs from the service's
//
// An example is a ```sh block right after a line `<!-- example -->`: one curl command, then the
// answer as comment lines (`# {...}`), which this script writes. Numbers are shown to 2 decimals.
// `<!-- example only=a,b -->` shows only those top-level fields of the answer. Adding an example
// for a new operation is writing the marker and the curl line, then running this script.
import Fastify, { type FastifyInstance } from 'fastify'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import app from '../app.js'
import { serverOptions } from '../options.js'
import { loadConfig } from '../lib/config.js'

export const ROOT = join(import.meta.dirname, '..')
export const README = join(ROOT, 'README.md')
const KEY = 'readme-example-key'

export interface Example {
  /** index of the curl line in the README's lines */
  line: number
  command: string
  only: string[] | null
  /** the answer as shown (the comment lines, joined), '' when none is shown yet */
  shown: string
  /** how many answer lines follow the command */
  answerLines: number
}

const MARKER = /^<!--\s*example(?:\s+only=([\w,]+))?\s*-->\s*$/

/** The examples of a README, in order. */
export function findExamples (text: string): Example[] {
  const lines = text.split('\n')
  const out: Example[] = []
  for (let i = 0; i < lines.length; i++) {
    const m = MARKER.exec(lines[i]!)
    if (m === null) continue
    if (lines[i + 1]?.trim() !== '```sh') {
      throw new Error(`README line ${i + 2}: an example marker must be followed by a \`\`\`sh block`)
    }
    const line = i + 2
    const command = lines[line] ?? ''
    if (!command.startsWith('curl ')) {
      throw new Error(`README line ${line + 1}: an example's first line must be a curl command`)
    }
    let n = 0
    while (lines[line + 1 + n]?.startsWith('# ') === true) n++
    const shown = lines
      .slice(line + 1, line + 1 + n)
      .map(l => l.slice(2))
      .join('\n')
    out.push({ line, command, only: m[1]?.split(',') ?? null, shown, answerLines: n })
  }
  return out
}

/** Shell words of one command line: single and double quotes, no expansions but $K and $B. */
export function shellWords (line: string): string[] {
  const words: string[] = []
  let cur: string | null = null
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!
    if (c === "'") {
      const end = line.indexOf("'", i + 1)
      cur = (cur ?? '') + line.slice(i + 1, end)
      i = end
    } else if (c === '"') {
      const end = line.indexOf('"', i + 1)
      cur = (cur ?? '') + line.slice(i + 1, end).replace(/\$K\b/g, KEY)
      i = end
    } else if (c === ' ' || c === '\t') {
      if (cur !== null) words.push(cur)
      cur = null
    } else {
      cur = (cur ?? '') + c
    }
  }
  if (cur !== null) words.push(cur)
  return words.map(w => w.replace(/^\$B/, '').replace(/\$K\b/g, KEY))
}

interface Request {
  url: string
  form: Array<[string, string]>
  files: Array<[string, string]>
}

/** What a curl command of the README asks: its path, its -d/--data-urlencode fields, its -F parts. */
export function parseCurl (command: string): Request {
  const w = shellWords(command)
  const req: Request = { url: '', form: [], files: [] }
  for (let i = 1; i < w.length; i++) {
    const a = w[i]!
    if (a === '-s' || a === '-sS') continue
    if (a === '-d' || a === '--data-urlencode' || a === '-F') {
      const v = w[++i] ?? ''
      const eq = v.indexOf('=')
      const [name, value] = [v.slice(0, eq), v.slice(eq + 1)]
      if (a === '-F' && value.startsWith('@')) req.files.push([name, value.slice(1)])
      else req.form.push([name, value])
    } else if (a.startsWith('/')) req.url = a
    else throw new Error(`unsupported curl argument in the README: ${a}`)
  }
  return req
}

function multipartBody (req: Request): { payload: Buffer; headers: Record<string, string> } {
  const boundary = 'readmeExampleBoundary'
  const chunks: Buffer[] = []
  for (const [name, value] of req.form) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`))
  }
  for (const [name, path] of req.files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${path.split('/').at(-1)}"\r\n\r\n`
      ),
      readFileSync(join(ROOT, path)),
      Buffer.from('\r\n')
    )
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

/** Numbers to 2 decimals, as the README shows them. */
export function rounded (value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? value : Math.round(value * 100) / 100
  if (Array.isArray(value)) return value.map(rounded)
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rounded(v)]))
  }
  return value
}

/** The answer the README should show for an example: compact JSON, rounded, only the fields asked. */
export async function answer (service: FastifyInstance, ex: Example): Promise<string> {
  const req = parseCurl(ex.command)
  const body =
    req.files.length > 0 || ex.command.includes(' -F ')
      ? multipartBody(req)
      : {
          payload: new URLSearchParams(req.form).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' }
        }
  const res = await service.inject({ method: 'POST', url: req.url, ...body })
  if (res.statusCode !== 200) throw new Error(`README line ${ex.line + 1}: ${res.statusCode} ${res.body.slice(0, 200)}`)
  let json = res.json() as Record<string, unknown>
  if (ex.only !== null) json = Object.fromEntries(ex.only.map(k => [k, json[k]]))
  return JSON.stringify(rounded(json))
}

/** The service with every model of model-store/, as `npm start` would run it, on a throwaway store. */
export async function buildService (): Promise<{ service: FastifyInstance; close: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'readme-examples-'))
  const config = loadConfig({
    ...process.env,
    API_KEYS: KEY,
    DATA_DIR: dataDir,
    MODEL_STORE: join(ROOT, 'model-store'),
    MAX_EVENT_LOOP_DELAY_MS: '0',
    REDIS_URL: '',
    RATE_LIMIT: '',
    QUOTA_TEXT_DAILY: '',
    QUOTA_TEXT_MONTHLY: '',
    QUOTA_IMAGE_DAILY: '',
    QUOTA_IMAGE_MONTHLY: ''
  })
  const service = Fastify(serverOptions(config, false))
  await service.register(app, { config })
  await service.ready()
  return {
    service,
    close: async () => {
      await service.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/** The README with every example's answer replaced by the service's. */
export async function rewrite (text: string, service: FastifyInstance): Promise<{ text: string; changed: number[] }> {
  const lines = text.split('\n')
  const changed: number[] = []
  // from the last example up, so that earlier line numbers stay valid
  for (const ex of findExamples(text).reverse()) {
    const got = await answer(service, ex)
    if (got === ex.shown) continue
    changed.unshift(ex.line + 1)
    lines.splice(ex.line + 1, ex.answerLines, `# ${got}`)
  }
  return { text: lines.join('\n'), changed }
}

async function main (): Promise<void> {
  const check = process.argv.includes('--check')
  const { service, close } = await buildService()
  try {
    const before = readFileSync(README, 'utf8')
    const { text, changed } = await rewrite(before, service)
    const n = findExamples(before).length
    if (changed.length === 0) {
      process.stdout.write(`${n} README examples: every shown answer is the service's\n`)
      return
    }
    if (check) {
      process.stdout.write(
        `README examples at lines ${changed.join(', ')} differ from the service's answers: ` +
          'run npm run readme-examples\n'
      )
      process.exitCode = 1
      return
    }
    writeFileSync(README, text)
    process.stdout.write(`${n} README examples: rewrote the answers at lines ${changed.join(', ')}\n`)
  } finally {
    await close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch(err => {
    process.stderr.write(`readme-examples: ${(err as Error).message}\n`)
    process.exit(1)
  })
}
