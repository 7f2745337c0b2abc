// The scaled topology of docker-compose.scaled.yml, from Debian packages on loopback: three
// service processes sharing one Redis behind HAProxy (deploy/haproxy.cfg's front end, the servers
// named by port). Quotas are exact across them, and every replica takes a share of the requests.
import t from 'tap'
import { spawn, spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { freePort, tempDir, TestRedis } from '../helper.js'
import { call, startService, usedToday } from '../processes.js'

const root = join(import.meta.dirname, '..', '..')
const haproxy = spawnSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' }).stdout.trim()
const compose = spawnSync('sh', ['-c', 'command -v docker-compose'], { encoding: 'utf8' }).status === 0

t.test(
  'docker-compose.scaled.yml: 3 replicas behind HAProxy on one Redis',
  { skip: compose ? false : 'docker-compose is not installed (.ci/run installs it)' },
  async t => {
    const r = spawnSync('docker-compose', ['-f', 'docker-compose.scaled.yml', 'config'], {
      cwd: root,
      encoding: 'utf8'
    })
    t.equal(r.status, 0, r.stderr)
    t.match(r.stdout, /replicas: 3/)
    t.match(r.stdout, /haproxy/)
    t.match(r.stdout, /REDIS_URL: redis:\/\/redis:6379/)
  }
)

t.test(
  'three processes behind HAProxy: 300 requests on a quota of 200, exactly 200 served',
  { skip: haproxy === '' ? 'haproxy is not installed (.ci/run installs it with apt-get)' : false },
  async t => {
    const redis = await TestRedis.start(t)
    const env = { REDIS_URL: redis.url, QUOTA_TEXT_DAILY: '200', REDIS_TIMEOUT_MS: '5000' }
    const replicas = await Promise.all([0, 1, 2].map(() => startService(t, env, { waitMs: 90_000 })))
    // the repository's front end and back end settings, the servers named by their ports
    const port = await freePort()
    const cfg = readFileSync(join(root, 'deploy', 'haproxy.cfg'), 'utf8')
      .replace(/^resolvers docker[\s\S]*?(?=^frontend)/m, '')
      .replace('bind :3000', `bind 127.0.0.1:${port}`)
      .replace(
        /^ {2}server-template .*$/m,
        replicas.map((s, i) => `  server api${i} 127.0.0.1:${s.port} check inter 1s`).join('\n')
      )
    const file = join(tempDir(t), 'haproxy.cfg')
    writeFileSync(file, cfg)
    t.equal(spawnSync(haproxy, ['-c', '-f', file], { encoding: 'utf8' }).status, 0, 'the configuration is valid')
    const lb = spawn(haproxy, ['-db', '-f', file], { stdio: 'ignore' })
    t.teardown(() => {
      lb.kill('SIGKILL')
    })
    const base = `http://127.0.0.1:${port}`
    for (let i = 0; i < 100; i++) {
      try {
        if ((await fetch(`${base}/health/ready`)).ok) break
      } catch {}
      await new Promise(resolve => setTimeout(resolve, 100))
    }
    const counts = (await Promise.all(replicas.map(s => fetch(`${s.url}/metrics`).then(r => r.text())))).map(served)
    const statuses = await Promise.all(
      Array.from({ length: 300 }, async (_, i) => {
        const r = await call(base, `text ${i}`)
        await r.arrayBuffer()
        return r.status
      })
    )
    t.equal(statuses.filter(s => s === 200).length, 200, 'exactly the quota served through the load balancer')
    t.equal(statuses.filter(s => s === 403).length, 100, 'the rest refused')
    t.equal(await usedToday(base), 200, '/usage through the load balancer')
    for (const s of replicas) t.equal(await usedToday(s.url), 200, `and on the replica at ${s.port}`)
    const after = (await Promise.all(replicas.map(s => fetch(`${s.url}/metrics`).then(r => r.text())))).map(served)
    const share = after.map((n, i) => n - (counts[i] as number))
    t.comment(`sentiment requests per replica: ${share.join(', ')}`)
    t.ok(
      share.every(n => n >= 50),
      'each replica took a share (round robin)'
    )
  }
)

/** sentiment requests a replica has answered, from its Prometheus metrics */
function served (metrics: string): number {
  let n = 0
  for (const m of metrics.matchAll(
    /^http_request_duration_seconds_count\{[^}]*route="\/v4\/sentiment"[^}]*\} (\d+)/gm
  )) {
    n += Number(m[1])
  }
  return n
}
