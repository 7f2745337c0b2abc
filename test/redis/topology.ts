// Real Redis topologies on loopback ports for the failover tests: a Sentinel-managed primary with
// a replica, and a 3-master Redis Cluster with a replica each. Every process is killed in teardown.
import type { Test } from 'tap'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { freePort, redisServerPath, tempDir } from '../helper.js'

export interface Node {
  port: number
  proc: ChildProcess
}

const cli = (port: number, ...args: string[]) =>
  spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8', timeout: 5000 })
    .stdout ?? ''

export async function until (what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise(resolve => setTimeout(resolve, 100))
  }
}

function run (t: Test, args: string[]): ChildProcess {
  const proc = spawn(redisServerPath() as string, args, { stdio: 'ignore' })
  t.teardown(() => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL')
  })
  return proc
}

async function server (t: Test, dir: string, extra: string[] = []): Promise<Node> {
  const port = await freePort()
  const d = join(dir, String(port))
  mkdirSync(d, { recursive: true })
  const proc = run(t, [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    d,
    ...extra
  ])
  await until(`redis-server on ${port}`, () => cli(port, 'ping').trim() === 'PONG')
  return { port, proc }
}

export function sentinelAvailable (): boolean {
  return redisServerPath() !== null && spawnSync('redis-cli', ['--version']).status === 0
}

/** A primary, its replica and three Sentinels (quorum 2, a primary down after 1 s). */
export async function sentinelSetup (
  t: Test
): Promise<{ primary: Node; replica: Node; sentinels: Node[]; url: string }> {
  const dir = tempDir(t)
  const primary = await server(t, dir)
  const replica = await server(t, dir, ['--replicaof', '127.0.0.1', String(primary.port)])
  await until('the replica in sync', () => cli(replica.port, 'info', 'replication').includes('master_link_status:up'))
  const sentinels: Node[] = []
  for (let i = 0; i < 3; i++) {
    const port = await freePort()
    const conf = join(dir, `sentinel-${port}.conf`)
    writeFileSync(
      conf,
      [
        `port ${port}`,
        'bind 127.0.0.1',
        `dir ${dir}`,
        `sentinel monitor main 127.0.0.1 ${primary.port} 2`,
        'sentinel down-after-milliseconds main 1000',
        'sentinel failover-timeout main 3000',
        'sentinel parallel-syncs main 1',
        ''
      ].join('\n')
    )
    const proc = run(t, [conf, '--sentinel'])
    await until(`sentinel on ${port}`, () => cli(port, 'ping').trim() === 'PONG')
    sentinels.push({ port, proc })
  }
  await until(
    'the sentinels to see the replica and each other',
    () =>
      sentinels.every(s => {
        const out = cli(s.port, 'sentinel', 'master', 'main')
        return /num-slaves\n1\n/.test(out) && /num-other-sentinels\n2\n/.test(out)
      }),
    30_000
  )
  return {
    primary,
    replica,
    sentinels,
    url: `redis+sentinel://${sentinels.map(s => `127.0.0.1:${s.port}`).join(',')}/main`
  }
}

/** Which port the Sentinels name as the primary now. */
export function sentinelPrimary (sentinel: Node): number {
  return Number(cli(sentinel.port, 'sentinel', 'get-master-addr-by-name', 'main').trim().split('\n')[1])
}

/** Three masters and a replica each, node time-out 1 s. */
export async function clusterSetup (t: Test): Promise<{ nodes: Node[]; url: string }> {
  const dir = tempDir(t)
  const nodes: Node[] = []
  for (let i = 0; i < 6; i++) {
    nodes.push(
      await server(t, dir, [
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        'nodes.conf',
        '--cluster-node-timeout',
        '1000'
      ])
    )
  }
  const created = spawnSync(
    'redis-cli',
    ['--cluster', 'create', ...nodes.map(n => `127.0.0.1:${n.port}`), '--cluster-replicas', '1', '--cluster-yes'],
    { encoding: 'utf8', timeout: 30_000 }
  )
  if (created.status !== 0) throw new Error(`redis-cli --cluster create failed: ${created.stdout}${created.stderr}`)
  await until(
    'the cluster ok on every node',
    () => nodes.every(n => cli(n.port, 'cluster', 'info').includes('cluster_state:ok')),
    30_000
  )
  await until(
    'every replica in sync',
    () =>
      nodes
        .filter(n => cli(n.port, 'role').startsWith('slave'))
        .every(n => cli(n.port, 'info', 'replication').includes('master_link_status:up')),
    30_000
  )
  return {
    nodes,
    url: `redis+cluster://${nodes
      .slice(0, 3)
      .map(n => `127.0.0.1:${n.port}`)
      .join(',')}`
  }
}

/** The port of the master that serves `tag`'s slot. */
export function masterOf (nodes: Node[], tag: string): number {
  const slot = Number(cli(nodes[0]!.port, 'cluster', 'keyslot', `{${tag}}`).trim())
  for (const line of cli(nodes[0]!.port, 'cluster', 'nodes').split('\n')) {
    const f = line.split(' ')
    if (!(f[2] ?? '').includes('master') || (f[2] ?? '').includes('fail')) continue
    for (const range of f.slice(8)) {
      const [a, b = a] = range.split('-').map(Number) as [number, number?]
      if (slot >= a && slot <= (b as number)) return Number((f[1] as string).split(':')[1]!.split('@')[0])
    }
  }
  throw new Error(`no master serves slot ${slot}`)
}

export { cli }
