// The gated mixture of two experts (training/mixture.ts, served by the sarcasm model): the saved
// TF.js graph computes what the trainer's JS forward pass computes, through the served loader, and
// the gate decides which expert answers.
import t from 'tap'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getTf } from '../../../lib/tf.js'
import { loadTextClassifier } from '../../../lib/text/classifier.js'
import { fileIO } from '../../../lib/tf-io.js'
import { featuriseBatch, type FeatureConfig } from '../../../lib/text/features.js'
import { predictMixture, saveMixture, trainMixture } from '../../../training/mixture.js'
import { predictAll } from '../../../training/fasttext.js'
import type { ModelManifest } from '../../../schemas/model-manifest.js'

const cfg: FeatureConfig = { buckets: 4096, charNgrams: [], wordBigrams: true, maxFeatures: 100, maxChars: 500 }
// domain A: chat about cats, label by "love"/"hate"; domain B: headlines, label by "area man"
const a = [...Array.from({ length: 40 }, (_, i) => ({ text: `i love my cat number ${i} lol`, label: 1 })), ...Array.from({ length: 40 }, (_, i) => ({ text: `i hate my cat number ${i} lol`, label: 0 }))]
const b = [...Array.from({ length: 40 }, (_, i) => ({ text: `area man wins prize ${i} , report says`, label: 1 })), ...Array.from({ length: 40 }, (_, i) => ({ text: `senate passes bill ${i} , report says`, label: 0 }))]
const gate = [...a.map((r) => ({ text: r.text, label: 1 })), ...b.map((r) => ({ text: r.text, label: 0 }))]
const opts = (seed: number, dim: number) => ({ dim, epochs: 8, lr: 0.3, seed, balance: true, classes: 2, quiet: true })

t.test('saved graph = JS forward pass, through the served loader; the gate picks the expert', async (t) => {
  const m = trainMixture(cfg, { name: 'chat', examples: a, opts: opts(1, 8) }, { name: 'news', examples: b, opts: opts(2, 4) }, { name: 'gate', examples: gate, opts: opts(3, 2) }, () => ({ name: 'none', value: 0 }))
  const dir = await mkdtemp(join(tmpdir(), 'mixture-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const { tf } = await getTf()
  await saveMixture(tf, m, join(dir, 'model.json'))
  await writeFile(join(dir, 'features.json'), JSON.stringify(cfg))
  const manifest = { name: 'mix', version: 1, kind: 'text-classifier', labels: ['no', 'yes'] } as unknown as ModelManifest
  const served = await loadTextClassifier(dir, manifest, tf, { imageMaxPixels: 0 })
  const texts = ['i love my cat number 7 lol', 'i hate my cat number 3 lol', 'area man wins prize 5 , report says', 'senate passes bill 9 , report says', 'something else entirely', '']
  const js = predictMixture(m, texts, cfg)
  // the served loader runs its own embedding lookup, not model.predict (the fast path handles the graph)
  const model = await tf.loadLayersModel(fileIO(join(dir, 'model.json')))
  const proto = Object.getPrototypeOf(model) as { predict: (...a: unknown[]) => unknown }
  let predictCalls = 0
  const original = proto.predict
  proto.predict = function (this: unknown, ...a: unknown[]) { predictCalls++; return original.apply(this, a) }
  const got = await served.predict(texts) as number[][]
  t.equal(predictCalls, 0, 'served through the embedding fast path, not model.predict')
  // the graph run by model.predict itself (which the counter sees)
  const { ids, weights, width } = featuriseBatch(texts, cfg)
  const direct = await (model.predict([tf.tensor2d(ids, [texts.length, width], 'int32'), tf.tensor2d(weights, [texts.length, width])]) as import('@tensorflow/tfjs').Tensor).array() as number[][]
  proto.predict = original
  t.equal(predictCalls, 1, 'the counter counts model.predict')
  for (const [i, row] of js.entries()) {
    t.ok(row.every((p, c) => Math.abs(p - got[i]![c]!) < 1e-5), `text ${i}: served = JS (${row.map((p) => p.toFixed(4))} / ${got[i]!.map((p) => p.toFixed(4))})`)
    t.ok(row.every((p, c) => Math.abs(p - direct[i]![c]!) < 1e-5), `text ${i}: model.predict = JS`)
    t.ok(Math.abs(got[i]![0]! + got[i]![1]! - 1) < 1e-5, `text ${i}: sums to 1`)
  }
  t.same(got.slice(0, 4).map((r) => r[1]! > 0.5), [true, false, true, false], 'each text answered right')
  // the gate: each domain's texts get (nearly) their own expert's answer, not an average of the two
  const own = [...predictAll(m.a, texts.slice(0, 2), cfg), ...predictAll(m.b, texts.slice(2, 4), cfg)]
  const other = [...predictAll(m.b, texts.slice(0, 2), cfg), ...predictAll(m.a, texts.slice(2, 4), cfg)]
  for (let i = 0; i < 4; i++) {
    const d = Math.abs(got[i]![1]! - own[i]![1]!)
    t.ok(d < 0.05 && d < Math.abs(got[i]![1]! - other[i]![1]!), `text ${i}: its own expert's answer (${got[i]![1]!.toFixed(3)} against ${own[i]![1]!.toFixed(3)}; the other expert ${other[i]![1]!.toFixed(3)})`)
  }
  served.dispose(); model.dispose()
})
