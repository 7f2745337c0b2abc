// The NER loader (lib/text/ner/tagger.ts) on hand-made model folders: files to entities with offsets,
// noun forms and name lists read beside the weights, and weights that do not match their manifest.
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FEATURES, NounForms, featurise } from '../../../../lib/text/ner/features.js'
import { LABELS, NUM_LABELS } from '../../../../lib/text/ner/labels.js'
import { loadNer, quantise, type Entity, type NerInput } from '../../../../lib/text/ner/tagger.js'
import { fileIO } from '../../../../lib/runtime/tf-io.js'
import { getTf } from '../../../../lib/runtime/tf.js'
import type { LoadedModel } from '../../../../lib/serving/loaded-model.js'
import type { ModelManifest } from '../../../../schemas/model-manifest.js'

t.test('the loader serves a model folder written in the trained format', async t => {
  // a hand-made model: every token scores S-PER (a one-token name) except lower-case ones (through the bias bucket
  // and the word bucket), so the whole path from files to offsets is checked without training
  const dir = mkdtempSync(join(tmpdir(), 'ner-test-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const { tf } = await getTf()
  const buckets = 1 << 12
  const W = new Float32Array(buckets * NUM_LABELS)
  const S_PER = LABELS.indexOf('S-PER')
  for (const w of ['Ada', 'Zoë']) {
    const ids = featurise([w], buckets)
    W[(ids[2] as number) * NUM_LABELS + S_PER] = 10 // template 2: the word as written
  }
  const q = quantise(W)
  const T = new Float32Array((NUM_LABELS + 1) * NUM_LABELS)
  const data = Buffer.concat([Buffer.from(q.bytes), Buffer.from(T.buffer)])
  await fileIO(join(dir, 'model.json')).save!({
    format: 'ner-perceptron',
    weightSpecs: [
      {
        name: 'en/emissions',
        shape: [buckets, NUM_LABELS],
        dtype: 'float32',
        quantization: { dtype: 'uint8', scale: q.scale, min: q.min }
      },
      { name: 'en/transitions', shape: [NUM_LABELS + 1, NUM_LABELS], dtype: 'float32' }
    ],
    weightData: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength),
    userDefinedMetadata: { buckets, features: FEATURES, labels: [...LABELS], languages: ['en'], maxChars: 1000 }
  })
  const manifest = {
    name: 'ner',
    version: 1,
    kind: 'ner-tagger',
    description: '',
    languages: ['en'],
    labels: ['name', 'group', 'place'],
    inputs: [],
    outputs: [],
    files: [],
    training: { command: '', data: [] },
    metrics: [],
    created: '2026-01-01T00:00:00Z'
  } as ModelManifest
  const model = (await loadNer(dir, manifest, tf, { imageMaxPixels: 0 })) as LoadedModel<NerInput, Entity[]>
  t.teardown(() => model.dispose())
  const text = '😀\r\nsaid Ada to Zoë'
  const [one, none, other] = await model.predict([
    { text, lang: 'en' },
    { text: 'nobody', lang: 'en' },
    { text: 'Ada', lang: 'xx' }
  ])
  t.same(
    one?.map(e => [e.name, e.category, text.slice(e.start, e.end)]),
    [
      ['Ada', 'name', 'Ada'],
      ['Zoë', 'name', 'Zoë']
    ]
  )
  for (const e of one ?? []) t.ok(e.confidence_score >= 0 && e.confidence_score <= 1)
  t.same(none, [])
  t.equal(other?.length, 1, 'an unknown language falls back to the first model')
  // the cap: nothing past maxChars is read
  const far = await model.predict([{ text: 'x '.repeat(600) + 'Ada', lang: 'en' }])
  t.same(far[0], [])
  // a large batch hands the event loop back while it works
  let ticks = 0
  const timer = setInterval(() => {
    ticks++
  }, 0)
  const many = await model.predict(Array.from({ length: 100 }, () => ({ text: 'x Ada '.repeat(160), lang: 'en' })))
  clearInterval(timer)
  t.equal(many.length, 100)
  t.ok(ticks > 0, `${ticks} timer ticks during the batch`)
})

t.test("the loader reads a language's noun forms and features its texts with them", async t => {
  // a hand-made German model that scores S-LOC only through the noun template "not a noun form, title case"
  const dir = mkdtempSync(join(tmpdir(), 'ner-test-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const { tf } = await getTf()
  const buckets = 1 << 16
  const nouns = NounForms.of(['Festival', 'Anschlag'])
  const W = new Float32Array(buckets * NUM_LABELS)
  const S_LOC = LABELS.indexOf('S-LOC')
  // template FEATURES - 4 hashes (noun class, capitalisation): the id of ('o', 'title')
  const id = featurise(['Rostock'], buckets, undefined, nouns)[FEATURES - 4] as number
  W[id * NUM_LABELS + S_LOC] = 10
  const q = quantise(W)
  const T = new Float32Array((NUM_LABELS + 1) * NUM_LABELS)
  const data = Buffer.concat([Buffer.from(q.bytes), Buffer.from(T.buffer), Buffer.from(nouns.hashes.buffer)])
  await fileIO(join(dir, 'model.json')).save!({
    format: 'ner-perceptron',
    weightSpecs: [
      {
        name: 'de/emissions',
        shape: [buckets, NUM_LABELS],
        dtype: 'float32',
        quantization: { dtype: 'uint8', scale: q.scale, min: q.min }
      },
      { name: 'de/transitions', shape: [NUM_LABELS + 1, NUM_LABELS], dtype: 'float32' },
      { name: 'de/nouns', shape: [nouns.hashes.length], dtype: 'int32' }
    ],
    weightData: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength),
    userDefinedMetadata: { buckets, features: FEATURES, labels: [...LABELS], languages: ['de'], maxChars: 1000 }
  })
  const manifest = {
    name: 'ner',
    version: 1,
    kind: 'ner-tagger',
    description: '',
    languages: ['de'],
    labels: ['name', 'group', 'place'],
    inputs: [],
    outputs: [],
    files: [],
    training: { command: '', data: [] },
    metrics: [],
    created: '2026-01-01T00:00:00Z'
  } as ModelManifest
  const model = (await loadNer(dir, manifest, tf, { imageMaxPixels: 0 })) as LoadedModel<NerInput, Entity[]>
  t.teardown(() => model.dispose())
  const [found] = await model.predict([{ text: 'Das Festival in Rostock', lang: 'de' }])
  // "Das" is title case and no noun form either: it scores S-LOC as well, "Festival" (a form) does not
  t.same(
    found?.map(e => e.name),
    ['Das', 'Rostock']
  )
})

t.test('the loader reads the name lists beside the noun forms, all three or none', async t => {
  const { tf } = await getTf()
  const buckets = 1 << 16
  const nouns = NounForms.of(['Festival'], { first: ['Ada'], last: ['Lovelace'], place: ['Rostock'] })
  const W = new Float32Array(buckets * NUM_LABELS)
  // S-LOC only through the noun template of ('oP', title case): a listed place
  const id = featurise(['Rostock'], buckets, undefined, nouns)[FEATURES - 4] as number
  W[id * NUM_LABELS + LABELS.indexOf('S-LOC')] = 10
  const q = quantise(W)
  const T = new Float32Array((NUM_LABELS + 1) * NUM_LABELS)
  const names = nouns.names!
  const save = async (kinds: ReadonlyArray<'first' | 'last' | 'place'>) => {
    const dir = mkdtempSync(join(tmpdir(), 'ner-test-'))
    t.teardown(() => rmSync(dir, { recursive: true, force: true }))
    const data = Buffer.concat([
      Buffer.from(q.bytes),
      Buffer.from(T.buffer),
      Buffer.from(nouns.hashes.buffer),
      ...kinds.map(k => Buffer.from(names[k].buffer))
    ])
    await fileIO(join(dir, 'model.json')).save!({
      format: 'ner-perceptron',
      weightSpecs: [
        {
          name: 'de/emissions',
          shape: [buckets, NUM_LABELS],
          dtype: 'float32',
          quantization: { dtype: 'uint8', scale: q.scale, min: q.min }
        },
        { name: 'de/transitions', shape: [NUM_LABELS + 1, NUM_LABELS], dtype: 'float32' },
        { name: 'de/nouns', shape: [nouns.hashes.length], dtype: 'int32' },
        ...kinds.map(k => ({ name: `de/names-${k}`, shape: [names[k].length], dtype: 'int32' as const }))
      ],
      weightData: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength),
      userDefinedMetadata: { buckets, features: FEATURES, labels: [...LABELS], languages: ['de'], maxChars: 1000 }
    })
    return dir
  }
  const manifest = {
    name: 'ner',
    version: 1,
    kind: 'ner-tagger',
    description: '',
    languages: ['de'],
    labels: ['name', 'group', 'place'],
    inputs: [],
    outputs: [],
    files: [],
    training: { command: '', data: [] },
    metrics: [],
    created: '2026-01-01T00:00:00Z'
  } as ModelManifest
  const model = (await loadNer(await save(['first', 'last', 'place']), manifest, tf, {
    imageMaxPixels: 0
  })) as LoadedModel<NerInput, Entity[]>
  t.teardown(() => model.dispose())
  const [found] = await model.predict([{ text: 'Das Festival in Rostock mit Ada', lang: 'de' }])
  t.same(
    found?.map(e => e.name),
    ['Rostock'],
    'only the listed place: "Das" and "Ada" have other classes'
  )
  await t.rejects(
    loadNer(await save(['first', 'place']), manifest, tf, { imageMaxPixels: 0 }),
    /name lists need the noun forms and one another/
  )
})

t.test('the loader refuses weights that do not match their manifest, naming what is wrong', async t => {
  const { tf } = await getTf()
  const manifest = {
    name: 'ner',
    version: 1,
    kind: 'ner-tagger',
    description: '',
    languages: ['en'],
    labels: ['name', 'group', 'place'],
    inputs: [],
    outputs: [],
    files: [],
    training: { command: '', data: [] },
    metrics: [],
    created: '2026-01-01T00:00:00Z'
  } as ModelManifest
  const buckets = 1 << 8
  const q = quantise(new Float32Array(buckets * NUM_LABELS).fill(1))
  const T = new Float32Array((NUM_LABELS + 1) * NUM_LABELS)
  const write = async (emissions: Record<string, unknown>, data: Buffer) => {
    const dir = mkdtempSync(join(tmpdir(), 'ner-test-'))
    t.teardown(() => rmSync(dir, { recursive: true, force: true }))
    await fileIO(join(dir, 'model.json')).save!({
      format: 'ner-perceptron',
      weightSpecs: [
        { name: 'en/emissions', shape: [buckets, NUM_LABELS], dtype: 'float32', ...emissions },
        { name: 'en/transitions', shape: [NUM_LABELS + 1, NUM_LABELS], dtype: 'float32' }
      ],
      weightData: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer,
      userDefinedMetadata: { buckets, features: FEATURES, labels: [...LABELS], languages: ['en'], maxChars: 1000 }
    })
    return dir
  }
  const uint8 = { quantization: { dtype: 'uint8', scale: q.scale, min: q.min } }
  const whole = Buffer.concat([Buffer.from(q.bytes), Buffer.from(T.buffer)])
  const ok = await loadNer(await write(uint8, whole), manifest, tf, { imageMaxPixels: 0 })
  t.ok(ok, 'the whole file loads')
  ok.dispose()
  await t.rejects(
    loadNer(await write(uint8, whole.subarray(0, whole.length - 4)), manifest, tf, { imageMaxPixels: 0 }),
    /shorter than its manifest \(en\/transitions\)/
  )
  const floats = Buffer.concat([Buffer.from(new Float32Array(buckets * NUM_LABELS).buffer), Buffer.from(T.buffer)])
  await t.rejects(loadNer(await write({}, floats), manifest, tf, { imageMaxPixels: 0 }), /uint8-quantised/)
})
