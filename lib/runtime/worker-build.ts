// Worker threads started from the TypeScript sources would each register tsx, and its loader
// (a hooks thread of its own, and a second copy of every module's source on the way) costs about
// 80 MB per worker, more than the TF.js runtime the worker needs. So the pools bundle a worker's
// code once per process with esbuild (the compiler tsx itself runs) into plain ES modules under
// node_modules/.cache, where the packages they import resolve as they do from lib/, and start
// their workers from those with no loader. Where that cannot be done (no writable cache, an
// entry that is not a local file) the caller keeps the TypeScript entry and its loader.
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/** The bundled entries: each given module's URL to its plain-JS copy. */
export type Compiled = Map<string, URL>

/** the node_modules folder this project's packages load from */
function nodeModules (): string {
  const pkg = createRequire(import.meta.url).resolve('esbuild')
  const at = pkg.lastIndexOf('/node_modules/')
  if (at < 0) throw new Error(`esbuild is not under a node_modules folder: ${pkg}`)
  return pkg.slice(0, at + '/node_modules'.length)
}

/**
 * Bundles `entries` (file URLs of TypeScript or JavaScript modules) into one folder, the code they
 * share split into common chunks and the packages left as imports. The folder is named by a hash
 * of what was built, so processes that build the same code share it, and each file is written
 * under a temporary name and renamed, so a reader never sees half a file.
 */
export async function compileWorkers (entries: string[]): Promise<Compiled> {
  const { build } = await import('esbuild')
  const points = Object.fromEntries(entries.map((e, i) => [`entry${i}`, source(fileURLToPath(e))]))
  const result = await build({
    entryPoints: points,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node}`,
    packages: 'external',
    write: false,
    outdir: '/out',
    logLevel: 'silent'
  })
  const hash = createHash('sha256')
  for (const f of result.outputFiles) hash.update(f.path).update(f.contents)
  const dir = join(nodeModules(), '.cache', 'open-text-image-api', 'workers', hash.digest('hex').slice(0, 16))
  await mkdir(dir, { recursive: true })
  for (const f of result.outputFiles) {
    const target = join(dir, f.path.slice('/out/'.length))
    const same = await readFile(target).then(
      b => b.equals(f.contents),
      () => false
    )
    if (same) continue
    await mkdir(dirname(target), { recursive: true })
    const tmp = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`
    await writeFile(tmp, f.contents)
    await rename(tmp, target)
  }
  return new Map(entries.map((e, i) => [e, pathToFileURL(join(dir, `entry${i}.js`))]))
}

/** a module's file: imports name the .js that tsx reads from the .ts beside it */
function source (path: string): string {
  return existsSync(path) || !path.endsWith('.js') ? path : path.slice(0, -3) + '.ts'
}
