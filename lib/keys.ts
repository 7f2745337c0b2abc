// API keys: generated with 192 random bits, stored only as sha256 hashes, compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { KeyRecord, Plan, Store } from './store/types.js'

export function hashKey (key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex')
}

export function newKey (): string {
  return randomBytes(24).toString('base64url')
}

export function newKeyId (): string {
  return 'key_' + randomBytes(6).toString('hex')
}

/** Equal-length hex hashes compared without an early exit. */
export function sameHash (a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  return x.length === y.length && timingSafeEqual(x, y)
}

export async function createKey (store: Store, name: string, plan: Plan): Promise<{ key: string; record: KeyRecord }> {
  const key = newKey()
  const record: KeyRecord = {
    id: newKeyId(),
    name,
    hash: hashKey(key),
    plan,
    created: new Date().toISOString(),
    source: 'store'
  }
  await store.putKey(record)
  return { key, record }
}

/** What the admin API and the CLI show of a key: never its hash. */
export function publicKey (r: KeyRecord) {
  return { id: r.id, name: r.name, plan: r.plan, created: r.created, source: r.source }
}
