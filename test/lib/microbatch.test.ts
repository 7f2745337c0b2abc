// Concurrent predictions share one model call; each caller gets its own rows, in order.
import t from 'tap'
import { microBatched } from '../../lib/microbatch.js'
import type { LoadedModel } from '../../lib/models.js'

function counting () {
  const calls: string[][] = []
  const model: LoadedModel<string, string> = {
    manifest: {} as LoadedModel['manifest'],
    async predict (inputs) { calls.push(inputs); if (inputs.includes('boom')) throw new Error('model failed'); return inputs.map((s) => s.toUpperCase()) },
    dispose () {}
  }
  return { model, calls }
}

t.test('merges concurrent calls into one batch and splits the answers', async (t) => {
  const { model, calls } = counting()
  const m = microBatched(model, 5, 100)
  const [a, b, c] = await Promise.all([m.predict(['a']), m.predict(['b', 'c']), m.predict(['d'])])
  t.same(a, ['A']); t.same(b, ['B', 'C']); t.same(c, ['D'])
  t.same(calls, [['a', 'b', 'c', 'd']], 'one model call')
})

t.test('a full batch runs at once; a large call is not held back', async (t) => {
  const { model, calls } = counting()
  const m = microBatched(model, 10_000, 3)
  const started = performance.now()
  t.same(await Promise.all([m.predict(['a', 'b']), m.predict(['c'])]), [['A', 'B'], ['C']])
  t.same(await m.predict(['x', 'y', 'z']), ['X', 'Y', 'Z'])
  t.ok(performance.now() - started < 1000, 'no waiting for the 10 s window')
  t.same(calls, [['a', 'b', 'c'], ['x', 'y', 'z']])
})

t.test('a failure reaches every caller of the batch; wait 0 is no batching', async (t) => {
  const { model } = counting()
  const m = microBatched(model, 5, 100)
  const results = await Promise.allSettled([m.predict(['ok']), m.predict(['boom'])])
  t.same(results.map((r) => r.status), ['rejected', 'rejected'])
  t.equal(microBatched(model, 0, 100), model)
})
