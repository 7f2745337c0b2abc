// REDIS_URL forms: one server, a Sentinel-managed primary, or a Redis Cluster.
//   redis://[user:password@]host:port[/db]            one server (rediss:// for TLS)
//   redis+sentinel://[user:password@]host:port[,host:port...]/primary-name[?db=N&sentinelPassword=..&wait=N]
//   redis+cluster://[user:password@]host:port[,host:port...][?wait=N]
// `wait`: how many replicas must have a charge before it is answered (Redis WAIT; a charge not
// replicated in time is undone and answered 503). 0 by default: replication is asynchronous, and a
// failover can lose the charges the replica had not received yet (on a loopback pair the failover
// test lost none). wait=1 is experimental: under load through a Sentinel failover the service did
// not recover in our test (every command timed out behind the WAITs), so it is not the default.
import type { ClusterOptions, RedisOptions } from 'ioredis'

export type RedisTarget =
  | { mode: 'single'; url: string; wait: number }
  | {
    mode: 'sentinel'
    sentinels: Array<{ host: string; port: number }>
    name: string
    options: RedisOptions
    wait: number
  }
  | { mode: 'cluster'; nodes: Array<{ host: string; port: number }>; options: RedisOptions; wait: number }

function hosts (list: string, scheme: string, fallbackPort: number): Array<{ host: string; port: number }> {
  return list.split(',').map(hp => {
    const m = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(hp.trim())
    if (m === null) throw new Error(`REDIS_URL (${scheme}): "${hp}" is not host:port`)
    const port = m[2] === undefined ? fallbackPort : Number(m[2])
    if (port < 1 || port > 65535) throw new Error(`REDIS_URL (${scheme}): port ${port} is out of range`)
    return { host: (m[1] as string).replace(/^\[|\]$/g, ''), port }
  })
}

function waitParam (params: URLSearchParams, fallback: number): number {
  const w = params.get('wait')
  if (w === null) return fallback
  if (!/^\d+$/.test(w) || Number(w) > 16) throw new Error(`REDIS_URL: wait must be an integer from 0 to 16, got "${w}"`)
  return Number(w)
}

/** Parses REDIS_URL; throws a readable error on a malformed one. */
export function parseRedisUrl (url: string): RedisTarget {
  const m = /^([a-z+]+):\/\/(?:([^@/]*)@)?([^/?]*)(\/[^?]*)?(?:\?(.*))?$/.exec(url)
  if (m === null) {
    throw new Error(
      'REDIS_URL must look like redis://host:port, redis+sentinel://host:port,.../name or redis+cluster://host:port,...'
    )
  }
  const [, scheme, auth, hostList, path = '', query = ''] = m as unknown as [
    string,
    string,
    string | undefined,
    string,
    string | undefined,
    string | undefined
  ]
  const params = new URLSearchParams(query)
  const [user, password] =
    auth === undefined
      ? [undefined, undefined]
      : auth.includes(':')
        ? [auth.slice(0, auth.indexOf(':')), auth.slice(auth.indexOf(':') + 1)]
        : [undefined, auth]
  const creds: RedisOptions = {
    ...(user !== undefined && user !== '' ? { username: decodeURIComponent(user) } : {}),
    ...(password !== undefined && password !== '' ? { password: decodeURIComponent(password) } : {})
  }
  if (scheme === 'redis' || scheme === 'rediss') {
    return {
      mode: 'single',
      url: url.replace(/([?&])wait=\d+&?/, '$1').replace(/[?&]$/, ''),
      wait: waitParam(params, 0)
    }
  }
  if (scheme === 'redis+sentinel') {
    const name = decodeURIComponent(path.replace(/^\//, ''))
    if (name === '') {
      throw new Error(
        "REDIS_URL (redis+sentinel): the primary's name is missing, as in redis+sentinel://host:26379/mymaster"
      )
    }
    const db = params.get('db')
    if (db !== null && !/^\d+$/.test(db)) {
      throw new Error(`REDIS_URL (redis+sentinel): db must be an integer, got "${db}"`)
    }
    const sp = params.get('sentinelPassword')
    return {
      mode: 'sentinel',
      sentinels: hosts(hostList, scheme, 26379),
      name,
      options: {
        ...creds,
        ...(db !== null ? { db: Number(db) } : {}),
        ...(sp !== null ? { sentinelPassword: sp } : {})
      },
      wait: waitParam(params, 0)
    }
  }
  if (scheme === 'redis+cluster') {
    if (path !== '' && path !== '/') {
      throw new Error('REDIS_URL (redis+cluster): a cluster has no databases; remove the path')
    }
    return { mode: 'cluster', nodes: hosts(hostList, scheme, 6379), options: creds, wait: waitParam(params, 0) }
  }
  throw new Error(`REDIS_URL: unknown scheme "${scheme}" (redis, rediss, redis+sentinel, redis+cluster)`)
}

/** ioredis Cluster options that fail fast, as the single-server client does. */
export function clusterOptions (redisOptions: RedisOptions): ClusterOptions {
  return {
    redisOptions,
    enableOfflineQueue: false,
    // a refused or failed-over node: refresh the slots and try again soon, never queue for long
    retryDelayOnFailover: 100,
    retryDelayOnClusterDown: 100,
    retryDelayOnTryAgain: 100,
    maxRedirections: 4,
    clusterRetryStrategy: times => Math.min(times * 100, 1000),
    slotsRefreshTimeout: 1000,
    slotsRefreshInterval: 2000,
    lazyConnect: true,
    enableAutoPipelining: true
  }
}
