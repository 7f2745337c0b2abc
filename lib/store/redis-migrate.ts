// Keys written before the store named them with hash tags (otia:key:<hash>, otia:keys,
// otia:q:<id>:..., otia:h:<id>:...) are renamed once to their tagged names, so that an upgrade keeps
// its API keys and this period's counts. Rate windows and charge markers live seconds: left to expire.
import type { Redis } from 'ioredis'

export async function migrateLegacyKeys (client: Redis, prefix: string): Promise<number> {
  let moved = 0
  // key records: the id -> hash index first, then each record
  const index = await client.hgetall(`${prefix}keys`)
  for (const [id, hash] of Object.entries(index)) {
    if ((await client.exists(`${prefix}key:${hash}`)) === 1) {
      await client.rename(`${prefix}key:${hash}`, `${prefix}{keys}:key:${hash}`)
      moved++
    }
    await client.hset(`${prefix}{keys}:keys`, id, hash)
  }
  if (Object.keys(index).length > 0) await client.del(`${prefix}keys`)
  // counters and history: otia:q:<id>:<kind>:<d|m>:<period>, otia:h:<id>:<day>
  for (const kind of ['q', 'h']) {
    let cursor = '0'
    do {
      const [next, names] = await client.scan(cursor, 'MATCH', `${prefix}${kind}:*`, 'COUNT', 1000)
      cursor = next
      for (const name of names) {
        const rest = name.slice(prefix.length + kind.length + 1)
        const id = rest.slice(0, rest.indexOf(':'))
        if (id === '') continue
        // renamed only if no tagged twin exists yet (RENAMENX), so a count is never overwritten
        if ((await client.renamenx(name, `${prefix}{${id}}:${kind}:${rest.slice(id.length + 1)}`)) === 1) moved++
      }
    } while (cursor !== '0')
  }
  return moved
}
