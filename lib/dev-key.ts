// The development key: with no API_KEYS and no key in the store, one key lets a user try the
// service. It is kept in DATA_DIR/dev-key (made at the first start, readable by its owner only), so
// it stays the same across restarts and for every process on the machine, and it is printed at
// each start while it is the only key. Once API_KEYS is set or a key is stored, it is not accepted.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { newKey } from './keys.js'

const KEY = /^[\w-]{20,128}$/

export const devKeyFile = (dataDir: string) => join(dataDir, 'dev-key')

async function read (file: string): Promise<string | null> {
  try {
    const key = (await readFile(file, 'utf8')).trim()
    return KEY.test(key) ? key : null
  } catch {
    return null
  }
}

/** The development key of DATA_DIR, made and kept there if it has none yet. */
export async function developmentKey (dataDir: string): Promise<string> {
  const file = devKeyFile(dataDir)
  const kept = await read(file)
  if (kept !== null) return kept
  await mkdir(dataDir, { recursive: true })
  const made = newKey()
  try {
    // exclusive: of two processes starting at once, one writes it and the other reads that one
    await writeFile(file, `${made}\n`, { mode: 0o600, flag: 'wx' })
    return made
  } catch (err) {
    if ((err as { code?: string }).code !== 'EEXIST') throw err
    const theirs = await read(file)
    if (theirs === null) throw new Error(`${file} holds no key; delete it to have a new one made`)
    return theirs
  }
}

/** What start-up says of the keys (printed on purpose outside the request log). */
export function keysNotice (dataDir: string, key: string | null, stored: number): string {
  if (key !== null) {
    const where = `the development key (kept in ${devKeyFile(dataDir)})`
    return `\nNo API_KEYS configured and no keys in the store: ${where}:\n${key}\n\n`
  }
  const why = 'the development key is not accepted (npm run keys -- list)'
  return `\n${stored} key(s) in the store and no API_KEYS: ${why}\n\n`
}
