// The import graph of the sources (tests aside): no circle, type-only imports included, so that every
// module can be read after the ones it imports.
import t from 'tap'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'

const ROOT = join(import.meta.dirname, '..')
const FOLDERS = ['app.ts', 'server.ts', 'options.ts', 'lib', 'plugins', 'schemas', 'training', 'eval', 'bench', 'bin']
const SPECIFIER = /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g

function sources (path: string): string[] {
  const full = join(ROOT, path)
  if (statSync(full, { throwIfNoEntry: false }) === undefined) return []
  if (!statSync(full).isDirectory()) return path.endsWith('.ts') ? [path] : []
  return readdirSync(full).flatMap(name => (name === 'data' ? [] : sources(join(path, name))))
}

/** Each source's relative imports that are sources too. */
export function importGraph (files: string[]): Map<string, string[]> {
  const known = new Set(files)
  return new Map(
    files.map(f => {
      const text = readFileSync(join(ROOT, f), 'utf8')
      const target = (m: RegExpMatchArray) => normalize(join(dirname(f), m[1] as string)).replace(/\.js$/, '.ts')
      const deps = [...text.matchAll(SPECIFIER)].map(target)
      return [f, deps.filter(d => known.has(d))]
    })
  )
}

/** A circle of imports, if there is one (depth-first search, three colours). */
export function findCircle (graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>()
  const path: string[] = []
  const visit = (f: string): string[] | null => {
    if (state.get(f) === 'done') return null
    if (state.get(f) === 'open') return [...path.slice(path.indexOf(f)), f]
    state.set(f, 'open')
    path.push(f)
    for (const d of graph.get(f) ?? []) {
      const found = visit(d)
      if (found !== null) return found
    }
    path.pop()
    state.set(f, 'done')
    return null
  }
  for (const f of graph.keys()) {
    const found = visit(f)
    if (found !== null) return found
  }
  return null
}

t.test('the circle finder finds a circle', async t => {
  t.same(
    findCircle(
      new Map([
        ['a', ['b']],
        ['b', ['c']],
        ['c', ['a']]
      ])
    ),
    ['a', 'b', 'c', 'a']
  )
  t.equal(
    findCircle(
      new Map([
        ['a', ['b', 'c']],
        ['b', ['c']],
        ['c', []]
      ])
    ),
    null
  )
})

t.test('no import circle among the sources', async t => {
  const files = FOLDERS.flatMap(sources).map(f => relative('.', f))
  t.ok(files.length > 100, `${files.length} sources`)
  const circle = findCircle(importGraph(files))
  t.equal(circle, null, circle === null ? 'none' : circle.join(' -> '))
})
