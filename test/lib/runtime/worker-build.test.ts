// Worker code bundled once into plain ES modules: a worker started from them with no flags (no tsx
// loader) runs the TypeScript it came from, packages resolve from node_modules, and the same code
// builds to the same files.
import t from 'tap'
import { Worker } from 'node:worker_threads'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { pathToFileURL } from 'node:url'
import { compileWorkers } from '../../../lib/runtime/worker-build.js'
import { tempDir } from '../../helper.js'

t.test(
  'a TypeScript worker and a module it loads, bundled: run without a loader, in the same folder for the same code',
  async t => {
    const dir = tempDir(t)
    // a worker that imports a package and a local module by its .js name, as the sources do
    writeFileSync(join(dir, 'double.ts'), 'export const double = (n: number): number => n * 2\n')
    writeFileSync(
      join(dir, 'entry.ts'),
      [
        "import { parentPort, workerData } from 'node:worker_threads'",
        "import { Type } from '@sinclair/typebox'",
        "import { double } from './double.js'",
        'const schema: { type: string } = Type.Number()',
        'const extra = await import(workerData.module as string) as { triple: (n: number) => number }',
        'parentPort!.postMessage({ doubled: double(21), tripled: extra.triple(3), type: schema.type, ' +
          'loader: process.execArgv.join(" ") })'
      ].join('\n')
    )
    writeFileSync(join(dir, 'extra.ts'), 'export function triple (n: number): number { return n * 3 }\n')
    const entry = pathToFileURL(join(dir, 'entry.js')).href
    const extra = pathToFileURL(join(dir, 'extra.ts')).href
    const built = await compileWorkers([entry, extra])
    const js = built.get(entry)!
    t.teardown(() => rmSync(dirname(fileURLToPath(js)), { recursive: true, force: true }))
    t.match(
      js.pathname,
      /node_modules\/\.cache\/open-text-image-api\/workers\/[0-9a-f]{16}\/entry0\.js$/,
      'under node_modules/.cache'
    )
    t.notMatch(readFileSync(js, 'utf8'), /: number/, 'plain JS: the types are gone')
    const w = new Worker(js, { execArgv: [], workerData: { module: built.get(extra)!.href } })
    const msg = await new Promise((resolve, reject) => {
      w.once('message', resolve)
      w.once('error', reject)
    })
    await w.terminate()
    t.same(msg, { doubled: 42, tripled: 9, type: 'number', loader: '' }, 'the worker runs both modules with no flags')
    const again = await compileWorkers([entry, extra])
    t.equal(again.get(entry)!.href, js.href, 'the same code: the same folder')
    writeFileSync(join(dir, 'double.ts'), 'export const double = (n: number): number => n * 4\n')
    const changed = await compileWorkers([entry, extra])
    t.teardown(() => rmSync(dirname(fileURLToPath(changed.get(entry)!)), { recursive: true, force: true }))
    t.not(changed.get(entry)!.href, js.href, 'changed code: a new folder')
    t.ok(existsSync(js), 'the old build is left for processes still reading it')
  }
)

t.test('a module that does not compile: the build fails with its error', async t => {
  const dir = tempDir(t)
  writeFileSync(join(dir, 'bad.ts'), 'export const x = (\n')
  await t.rejects(compileWorkers([pathToFileURL(join(dir, 'bad.ts')).href]), /Unexpected end of file|Expected/)
})
