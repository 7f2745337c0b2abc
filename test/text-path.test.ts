// The files a request's text crosses between the route and the model and back, as the V8 profiler sees them run
// during one sarcasm request in German (detected, answered by the English model as SPEC section 8 says):
// every file whose code ran, less the request's infrastructure (hooks, keys, quotas, deadlines) and the models'
// own folders. The text workers run in other threads, which this profiler does not see: the path through them is
// what the main thread runs with workers, and what routing runs without them, and the worker itself.
import t, { type Test } from 'tap'
import { Session } from 'node:inspector/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { buildWithRealModels, KEY } from './helper.js'

const ROOT = join(import.meta.dirname, '..')
const MODELS = ['sarcasm', 'language_detection', 'word-vectors']
const TEXT = 'Ich habe solche Angst vor der Prüfung morgen, ich kann nicht schlafen'
/** the request's infrastructure (hooks, keys, quotas, deadlines; the body's field shapes and lang_code checked
 * before validation: lib/fields.ts, lib/http/routes.ts), and the models' own code */
const NOT_THE_PATH = [
  /^test\//,
  /^(app|options)\.ts$/,
  /^lib\/fields\.ts$/,
  /^lib\/http\/routes\.ts$/,
  /^plugins\/(core|system)\//,
  /^lib\/(store|runtime|image)\//,
  /^lib\/(metering|keys|errors)\.ts$/,
  /^lib\/text\/(bag|cnn|encoder|heads|ner|keywords|words|langid)\//
]

/** The files of the project whose code ran during one request (after one to warm up). */
async function filesRun (t: Test, app: FastifyInstance): Promise<string[]> {
  const ask = () => app.inject({ method: 'POST', url: '/v4/sarcasm', payload: { api_key: KEY, text: TEXT } })
  const session = new Session()
  session.connect()
  await session.post('Profiler.enable')
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true })
  await ask()
  await session.post('Profiler.takePreciseCoverage')
  const res = await ask()
  const { result } = await session.post('Profiler.takePreciseCoverage')
  await session.post('Profiler.stopPreciseCoverage')
  session.disconnect()
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-language'], 'en', 'German, answered as English: sarcasm serves English only')
  return result
    .filter(f => f.url.startsWith('file:') && !f.url.includes('/node_modules/'))
    .filter(f => f.functions.some(fn => fn.ranges.some(r => r.count > 0)))
    .map(f => relative(ROOT, fileURLToPath(f.url)))
}

const onPath = (files: string[]) => files.filter(f => !NOT_THE_PATH.some(p => p.test(f)))

t.test('a text crosses at most 10 files from its route to the model and back', async t => {
  const onMain = onPath(await filesRun(t, await buildWithRealModels(t, MODELS, { env: { TEXT_WORKERS: '0' } })))
  const toWorkers = onPath(await filesRun(t, await buildWithRealModels(t, MODELS, { env: { TEXT_WORKERS: '1' } })))
  for (const f of ['plugins/ops/sarcasm.ts', 'lib/http/text-operation.ts', 'lib/text/routing.ts']) {
    t.ok(onMain.includes(f), `${f} ran (the probe sees the path)`)
  }
  t.ok(toWorkers.includes('lib/text/pool/pool.ts'), 'with workers, the text went to the pool')
  t.comment(`with workers, on the main thread: ${toWorkers.join(', ')}`)
  t.notOk(toWorkers.includes('lib/text/calibration.ts'), 'with workers, the calibration ran in the worker')
  const path = [...new Set([...toWorkers, ...onMain, 'lib/text/pool/worker.ts'])].sort()
  t.comment(path.join(', '))
  t.ok(path.length <= 10, `${path.length} files: ${path.join(', ')}`)
})
