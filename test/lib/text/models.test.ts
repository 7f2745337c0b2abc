// Every model in model-store: its manifest validates and names what it was trained on; each text
// classifier answers probabilities summing to 1, the same for a text alone or in a batch.
import t from 'tap'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { Value } from '@sinclair/typebox/value'
import { ModelManifest } from '../../../schemas/model-manifest.js'
import { scanStore } from '../../../lib/registry.js'
import { loadTextClassifier } from '../../../lib/text/classifier.js'
import { getTf } from '../../../lib/tf.js'
import { featurise, featuriseBatch, type FeatureConfig } from '../../../lib/text/features.js'
import { fileIO } from '../../../lib/tf-io.js'

type Tensor = import('@tensorflow/tfjs').Tensor

const STORE = join(import.meta.dirname, '..', '..', '..', 'model-store')

t.test('every manifest validates, lists its files, data and licences, and its validation metrics', async (t) => {
  const infos = await scanStore(STORE)
  t.ok(infos.length >= 8, `${infos.length} models`)
  for (const info of infos) {
    t.ok(Value.Check(ModelManifest, info.manifest), `${info.name} manifest`)
    t.equal(info.manifest.name, info.name, `${info.name}: name is the folder`)
    t.ok(info.manifest.training.data.length > 0 && info.manifest.training.data.every((d) => d.licence.length > 0), `${info.name}: data and licences`)
    t.ok(info.manifest.metrics.length > 0, `${info.name}: metrics`)
    for (const f of info.manifest.files) {
      t.ok(existsSync(join(info.dir, f)), `${info.name}: ${f} present`)
      t.ok(statSync(join(info.dir, f)).size < 30 * 1024 * 1024, `${info.name}: ${f} under 30 MB`)
    }
  }
  t.same(readdirSync(STORE).filter((n) => !n.includes('.')).sort(), infos.map((i) => i.name).sort(), 'no folder without a loadable version')
})

t.test('text classifiers: sums to 1, batch equals single, long and empty-ish inputs, deterministic', async (t) => {
  const { tf } = await getTf()
  const texts = ['I love it!', 'Stocks fell sharply today.', 'why is my order late??', '😀😀😀', 'x']
  for (const info of (await scanStore(STORE)).filter((i) => i.manifest.kind === 'text-classifier')) {
    const model = await loadTextClassifier(info.dir, info.manifest, tf, { imageMaxPixels: 0 })
    const batch = await model.predict(texts) as number[][]
    t.equal(batch.length, texts.length)
    for (const [i, row] of batch.entries()) {
      t.equal(row.length, info.manifest.labels.length)
      t.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5, `${info.name}: text ${i} sums to 1`)
      const [alone] = await model.predict([texts[i] as string]) as number[][]
      t.ok(alone!.every((p, j) => Math.abs(p - (row[j] as number)) < 1e-5), `${info.name}: text ${i} alone = in the batch`)
    }
    const [long] = await model.predict(['word '.repeat(100_000)]) as number[][]
    t.ok(Math.abs(long!.reduce((a, b) => a + b, 0) - 1) < 1e-5, `${info.name}: a 500,000-character text`)
    const again = await model.predict(texts)
    t.same(again, batch, `${info.name}: deterministic`)
    model.dispose()
  }
})

t.test('text classifiers: the served embedding bag equals the saved graph run by model.predict', async (t) => {
  const { tf } = await getTf()
  const texts = ['I love it!', 'Stocks fell sharply today, and the bank warned of worse to come.', 'why is my order late??', '😀😀😀', 'x', 'word '.repeat(3000)]
  const proto = tf.LayersModel.prototype as unknown as { predict: (...a: unknown[]) => unknown }
  const original = proto.predict
  let calls = 0
  proto.predict = function (this: unknown, ...a: unknown[]) { calls++; return original.apply(this, a) }
  t.teardown(() => { proto.predict = original })
  for (const info of (await scanStore(STORE)).filter((i) => i.manifest.kind === 'text-classifier')) {
    const served = await loadTextClassifier(info.dir, info.manifest, tf, { imageMaxPixels: 0 })
    calls = 0
    const got = await served.predict(texts) as number[][]
    t.equal(calls, 0, `${info.name}: served without model.predict (the JS embedding bag)`)
    const cfg = JSON.parse(readFileSync(join(info.dir, 'features.json'), 'utf8')) as FeatureConfig
    const model = await tf.loadLayersModel(fileIO(join(info.dir, 'model.json')))
    const { ids, weights, width } = featuriseBatch(texts, cfg)
    const direct = await (model.predict([tf.tensor2d(ids, [texts.length, width], 'int32'), tf.tensor2d(weights, [texts.length, width])]) as Tensor).array() as number[][]
    t.ok(calls > 0, 'model.predict is counted')
    for (const [i, row] of got.entries()) {
      const worst = Math.max(...row.map((p, c) => Math.abs(p - direct[i]![c]!)))
      t.ok(worst < 1e-5, `${info.name}: text ${i} served = model.predict (largest difference ${worst.toExponential(1)})`)
    }
    served.dispose(); model.dispose()
  }
})

t.test('features: bounded, padded, hashed into range', async (t) => {
  const cfg = { buckets: 1 << 16, charNgrams: [3, 5], wordBigrams: true, maxFeatures: 50, maxChars: 200 }
  const f = featurise('Hello @someone, check https://x.y/z soooooo goooood 123 #fun', cfg)
  t.ok(f.ids.length <= 50)
  t.ok([...f.ids].every((id) => id >= 1 && id < cfg.buckets))
  t.ok(Math.abs([...f.weights].reduce((a, b) => a + b, 0) - 1) < 1e-5)
  t.same(featurise('hello @a https://a.b', cfg), featurise('HELLO @b https://c.d', cfg), 'user names and addresses normalised')
  const empty = featurise('', cfg)
  t.equal(empty.ids.length, 1)
  t.equal(empty.ids[0], 0, 'an empty text is one padding feature')
})
