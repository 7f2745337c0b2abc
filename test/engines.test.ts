// The Node version the project names (package.json engines, the Docker image) is one every
// installed dependency supports: npm ci warns of no unsupported engine.
import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createRequire } from 'node:module'

const root = join(import.meta.dirname, '..')
interface Semver {
  minVersion: (r: string) => { version: string } | null
  satisfies: (v: string, r: string) => boolean
}
interface Locked {
  engines?: { node?: string } | string[]
  optional?: boolean
}
const semver = createRequire(import.meta.url)('semver') as Semver
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } }
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, Locked> }

t.test('every locked dependency supports the lowest Node the project names, and so does the image', async t => {
  const lowest = semver.minVersion(pkg.engines.node)?.version ?? ''
  t.match(lowest, /^\d+\.\d+\.\d+$/)
  // npm reads a range that admits 20.0.0 as satisfied by any 20.x: check with the latest 20.x seen here
  const node = `${lowest.split('.')[0]}.99.0`
  const refusing = Object.entries(lock.packages)
    .filter(([path, p]) => path !== '' && p.optional !== true && !Array.isArray(p.engines))
    .filter(([, p]) => typeof (p.engines as { node?: string } | undefined)?.node === 'string')
    .filter(([, p]) => !semver.satisfies(node, (p.engines as { node: string }).node))
    .map(([path, p]) => `${path.replace(/^.*node_modules\//, '')} wants node ${(p.engines as { node: string }).node}`)
  t.same(refusing, [], `engines ${pkg.engines.node}`)
  const from = /^FROM node:(\d+)/m.exec(readFileSync(join(root, 'Dockerfile'), 'utf8'))?.[1]
  t.equal(from, lowest.split('.')[0], 'the image runs that Node')
})
