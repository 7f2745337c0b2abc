// The Redis connection under RedisStore: the ioredis client for each REDIS_URL form (one server, Sentinel,
// Cluster) with options that fail fast and the store's Lua scripts defined, the count of replicas that WAIT may
// ask for, and the two ways a store call goes out: bounded by the time-out, and followed by WAIT in the same
// round trip.
import { Cluster, Redis, type ChainableCommander, type RedisOptions } from 'ioredis'
import { clusterOptions, type RedisTarget } from './redis-url.js'
import { HIT, METER, REFUND, UNDO } from './redis-scripts.js'

export function redisOptions (timeoutMs: number): RedisOptions {
  return {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    // keep reconnecting in the background, at most once a second, so service resumes by itself
    retryStrategy: times => Math.min(times * 100, 1000),
    lazyConnect: true,
    // the commands of one turn of the event loop leave in one socket write (one write per command
    // cost about 46 us of main-thread time per request under load)
    enableAutoPipelining: true
  }
}

/** The client for `target`, with the store's scripts defined (otiaHit, otiaMeter, otiaUndo, otiaRefund). */
export function redisClient (target: RedisTarget, timeoutMs: number): Redis | Cluster {
  const base = redisOptions(timeoutMs)
  let client: Redis | Cluster
  if (target.mode === 'single') client = new Redis(target.url, base)
  else if (target.mode === 'sentinel') {
    client = new Redis({
      ...base,
      ...target.options,
      sentinels: target.sentinels,
      name: target.name,
      sentinelRetryStrategy: (times: number) => Math.min(times * 100, 1000)
    })
  } else client = new Cluster(target.nodes, clusterOptions({ ...base, ...target.options, lazyConnect: false }))
  // defineCommand: EVALSHA, and EVAL only when Redis does not have the script yet
  client.defineCommand('otiaHit', { numberOfKeys: 1, lua: HIT })
  client.defineCommand('otiaMeter', { numberOfKeys: 5, lua: METER })
  client.defineCommand('otiaUndo', { numberOfKeys: 1, lua: UNDO })
  client.defineCommand('otiaRefund', { numberOfKeys: 3, lua: REFUND })
  // errors are reported through the commands that fail; an unhandled 'error' event would crash
  client.on('error', () => {})
  return client
}

/**
 * The replicas connected to the primary that `watcher` reaches (under a Cluster: the fewest any master has);
 * null when no master answered.
 */
export async function fewestReplicas (watcher: Redis | Cluster): Promise<number | null> {
  const clients = watcher instanceof Cluster ? watcher.nodes('master') : [watcher]
  let fewest = Infinity
  for (const c of clients) {
    const role = (await c.call('ROLE')) as [string, number, unknown[]]
    if (role[0] === 'master') fewest = Math.min(fewest, role[2].length)
  }
  return fewest !== Infinity ? fewest : null
}

/** A request's store call, given up after the time-out however ioredis retries it: a Cluster
 * client resends a command whose node went away after a slot refresh (each try with its own
 * command time-out), which took a request about 0.9 s when a master was killed (test/redis/failover:
 * 0.86-1.06 s; 0.52 s bounded). The timer costs about 1 us a call. */
export function bounded<T> (call: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from Redis in ${timeoutMs} ms`)), timeoutMs)
  })
  return Promise.race([call, late]).finally(() => clearTimeout(timer))
}

/**
 * Sends `first` and, when `wait` replicas are asked for, WAIT in the same round trip (a pipeline goes
 * to one node, the one of `first`'s slot). Resolves `first`'s reply, and how many replicas had it.
 */
export async function withWait<T> (
  client: Redis | Cluster,
  wait: number,
  timeoutMs: number,
  first: (p: ChainableCommander) => ChainableCommander
): Promise<{ reply: T; acked: number; wanted: number }> {
  // no replicas to wait for: the command alone (on the client it returns its reply)
  if (wait === 0) {
    return {
      reply: await bounded(first(client as unknown as ChainableCommander) as unknown as Promise<T>, timeoutMs),
      acked: 0,
      wanted: 0
    }
  }
  // WAIT gives up at half the command time-out, so that its answer (too few replicas) arrives
  const res = await bounded(
    first(client.pipeline())
      .call('WAIT', wait, Math.max(1, Math.floor(timeoutMs / 2)))
      .exec(),
    timeoutMs
  )
  if (res === null || res.length < 2) throw new Error('no reply')
  for (const [err] of res) if (err !== null) throw err
  return { reply: res[0]![1] as T, acked: Number(res[1]![1]), wanted: wait }
}
