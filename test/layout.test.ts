// The house rules the linter cannot see across languages: every source file (TypeScript, JavaScript
// and the Python training tools) under 300 lines with lines under 120 columns, training/ holding only
// its CLI and its folders, and no experiment prose kept as a NOTES constant (it lives in docs/).
import t from 'tap'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

const ROOT = join(import.meta.dirname, '..')
const FOLDERS = ['lib', 'plugins', 'schemas', 'training', 'eval', 'bench', 'bin', 'dashboard', 'test', 'deploy']
const SOURCE = /\.(ts|js|mjs|cjs|py)$/
const SKIP = new Set(['node_modules', 'data', '.tap', '__pycache__'])

function walk (dir: string): string[] {
  return readdirSync(dir).flatMap(name => {
    if (SKIP.has(name)) return []
    const full = join(dir, name)
    if (statSync(full).isDirectory()) return walk(full)
    return SOURCE.test(name) ? [full] : []
  })
}

const TOP = ['app.ts', 'server.ts', 'options.ts']
const files = [...FOLDERS.flatMap(f => walk(join(ROOT, f))), ...TOP.map(f => join(ROOT, f))]

t.test('the walk finds the sources, Python included', async t => {
  t.ok(files.length > 200)
  t.ok(files.some(f => f.endsWith('.py')))
})

t.test('no source file over 300 lines, no line over 120 columns', async t => {
  const long: string[] = []
  const wide: string[] = []
  for (const f of files) {
    const lines = readFileSync(f, 'utf8').split('\n')
    if (lines.at(-1) === '') lines.pop()
    if (lines.length > 300) long.push(`${relative(ROOT, f)} (${lines.length} lines)`)
    lines.forEach((l, i) => {
      if ([...l].length > 120) wide.push(`${relative(ROOT, f)}:${i + 1}`)
    })
  }
  t.same(long, [])
  t.same(wide, [])
})

t.test('training/ holds its CLI, its data notes and its folders only', async t => {
  const top = readdirSync(join(ROOT, 'training')).filter(n => !statSync(join(ROOT, 'training', n)).isDirectory())
  t.same(top.sort(), ['DATA.md', 'train.ts'])
})

t.test('no experiment prose in NOTES constants', async t => {
  const prose = files.filter(f => !f.includes('/test/') && /\bconst NOTES\b/.test(readFileSync(f, 'utf8')))
  t.same(
    prose.map(f => relative(ROOT, f)),
    []
  )
})
