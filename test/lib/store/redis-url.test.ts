// REDIS_URL forms: one server, Sentinel, Cluster; a malformed one is refused with a readable error.
import t from 'tap'
import { parseRedisUrl } from '../../../lib/store/redis-url.js'

t.test('one server', async t => {
  t.same(parseRedisUrl('redis://127.0.0.1:6379'), { mode: 'single', url: 'redis://127.0.0.1:6379', wait: 0 })
  t.same(parseRedisUrl('rediss://u:p@cache:6380/2?wait=1'), {
    mode: 'single',
    url: 'rediss://u:p@cache:6380/2',
    wait: 1
  })
})

t.test('sentinel', async t => {
  t.same(parseRedisUrl('redis+sentinel://s1:26379,s2,[::1]:26380/mymaster'), {
    mode: 'sentinel',
    sentinels: [
      { host: 's1', port: 26379 },
      { host: 's2', port: 26379 },
      { host: '::1', port: 26380 }
    ],
    name: 'mymaster',
    options: {},
    wait: 0
  })
  t.same(parseRedisUrl('redis+sentinel://:se%40cret@s1:26379/main?db=3&sentinelPassword=x&wait=1'), {
    mode: 'sentinel',
    sentinels: [{ host: 's1', port: 26379 }],
    name: 'main',
    options: { password: 'se@cret', db: 3, sentinelPassword: 'x' },
    wait: 1
  })
})

t.test('cluster', async t => {
  t.same(parseRedisUrl('redis+cluster://admin:pw@10.0.0.1:7000,10.0.0.2:7001'), {
    mode: 'cluster',
    nodes: [
      { host: '10.0.0.1', port: 7000 },
      { host: '10.0.0.2', port: 7001 }
    ],
    options: { username: 'admin', password: 'pw' },
    wait: 0
  })
})

t.test('malformed URLs are refused', async t => {
  const bad: Array<[string, RegExp]> = [
    ['localhost:6379', /must look like/],
    ['memcached://h:1', /unknown scheme "memcached"/],
    ['redis+sentinel://s1:26379', /primary's name is missing/],
    ['redis+sentinel://s1:26379/m?db=x', /db must be an integer/],
    ['redis+cluster://h:7000/1', /no databases/],
    ['redis+cluster://h:99999', /out of range/],
    ['redis+cluster://h:1,:2', /is not host:port/],
    ['redis+cluster://h:1?wait=-1', /wait must be an integer/]
  ]
  for (const [url, why] of bad) t.throws(() => parseRedisUrl(url), why, url)
})
