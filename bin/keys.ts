// npm run keys -- create --name NAME [--text-daily N] [--text-monthly N] [--image-daily N]
//                 [--image-monthly N] [--rate N]     prints the new key alone on its last line
// npm run keys -- list
// npm run keys -- revoke KEY_OR_ID
// Uses the store REDIS_URL names, else the embedded store's database in DATA_DIR.
import { parseArgs } from 'node:util'
import { join } from 'node:path'
import { loadConfig } from '../lib/config.js'
import { createKey, hashKey, publicKey } from '../lib/keys.js'
import { RedisStore } from '../lib/store/redis.js'
import { openStore } from '../plugins/core/store.js'
import type { Plan } from '../lib/store/types.js'

const USAGE = [
  'usage:',
  '  npm run keys -- create --name NAME [--text-daily N] [--text-monthly N] [--image-daily N] [--image-monthly N] ' +
    '[--rate N]',
  '  npm run keys -- list',
  '  npm run keys -- revoke KEY_OR_ID'
].join('\n')

function fail (msg: string): never {
  process.stderr.write(`${msg}\n${USAGE}\n`)
  process.exit(2)
}

function limit (v: string | undefined, name: string, fallback: number | null, positive = false): number | null {
  if (v === undefined) return fallback
  if (v === 'none' || v === 'unlimited') return null
  const n = Number(v)
  if (!Number.isFinite(n) || n < 0 || (positive && n === 0) || (!positive && !Number.isInteger(n))) {
    fail(`--${name} must be ${positive ? 'a positive number' : 'a non-negative integer'} or "none", got "${v}"`)
  }
  return n
}

/** Where a key is kept, in the words of the README: the embedded store writes a file. */
function where (store: { kind: string }, dataDir: string): string {
  return store.kind === 'sqlite'
    ? `the embedded store's database (${join(dataDir, 'store.db')})`
    : `the ${store.kind} store`
}

async function main () {
  const [cmd, ...rest] = process.argv.slice(2)
  if (cmd === 'help' || rest.includes('--help') || rest.includes('-h') || cmd === '--help' || cmd === '-h') {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  if (cmd === undefined) fail('no command')
  const config = loadConfig()
  const store = openStore(config)
  if (store instanceof RedisStore && !(await store.connect(3000))) fail('cannot reach Redis at REDIS_URL')
  try {
    switch (cmd) {
      case 'create': {
        const options = {
          name: { type: 'string' },
          'text-daily': { type: 'string' },
          'text-monthly': { type: 'string' },
          'image-daily': { type: 'string' },
          'image-monthly': { type: 'string' },
          rate: { type: 'string' }
        } as const
        let parsed
        try {
          parsed = parseArgs({ args: rest, options })
        } catch (err) {
          fail((err as Error).message)
        }
        const { values } = parsed
        if (values.name === undefined || values.name.trim() === '') fail('create needs --name')
        const d = config.defaultPlan
        const plan: Plan = {
          textDaily: limit(values['text-daily'], 'text-daily', d.textDaily),
          textMonthly: limit(values['text-monthly'], 'text-monthly', d.textMonthly),
          imageDaily: limit(values['image-daily'], 'image-daily', d.imageDaily),
          imageMonthly: limit(values['image-monthly'], 'image-monthly', d.imageMonthly),
          rate: limit(values.rate, 'rate', d.rate, true)
        }
        const { key, record } = await createKey(store, values.name.trim(), plan)
        process.stdout.write(
          `created ${record.id} (${record.name}) in ${where(store, config.dataDir)}, plan ${JSON.stringify(plan)}\n`
        )
        process.stdout.write(`the key is shown once; keep it safe:\n${key}\n`)
        break
      }
      case 'list': {
        const keys = await store.listKeys()
        if (keys.length === 0) process.stdout.write('no keys\n')
        for (const k of keys) process.stdout.write(JSON.stringify(publicKey(k)) + '\n')
        break
      }
      case 'revoke': {
        const target = rest[0]
        if (target === undefined) fail('revoke needs a key or a key id')
        const rec = (await store.deleteKey(target)) ?? (await store.deleteKey(hashKey(target)))
        if (rec === null) {
          process.stderr.write(`no key matches ${target.startsWith('key_') ? target : 'that key'}\n`)
          process.exitCode = 1
          break
        }
        process.stdout.write(`revoked ${rec.id} (${rec.name})\n`)
        break
      }
      default:
        fail(`unknown command ${cmd}`)
    }
  } finally {
    await store.close()
  }
}

main().catch(err => {
  process.stderr.write(`keys: ${(err as Error).message}\n`)
  process.exit(1)
})
