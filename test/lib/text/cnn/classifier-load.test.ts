// The word-order classifier (kind text-cnn) loaded from a store: a store of symlinks, the process's shared
// copy of the weights, a model of independent scores (output sigmoid), and a long text read in parts.
import t from 'tap'
import { mkdtemp, rm, symlink, writeFile, mkdir, cp, truncate } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  cnnForward,
  cnnTensors,
  loadCnnClassifier,
  shareCnnClassifier,
  softmax
} from '../../../../lib/text/cnn/classifier.js'
import { readInParts, textParts } from '../../../../lib/text/cnn/parts.js'
import { loadWordVectors } from '../../../../lib/text/words/vectors.js'
import { adoptShared, folderKey } from '../../../../lib/text/pool/shared-memory.js'
import type { ModelManifest } from '../../../../schemas/model-manifest.js'
import { plainLogits, STORE, toyModel, VECTORS } from './toy-cnn.js'

t.test(
  "loading: a store of symlinks finds the shared table; the process's shared copy of the weights " +
    'gives the same answers',
  async t => {
    const wv = await loadWordVectors(VECTORS)
    const { cfg, bytes } = toyModel(wv, [2, 3], 0, 3)
    const store = await mkdtemp(join(tmpdir(), 'cnn-'))
    t.teardown(() => rm(store, { recursive: true, force: true }))
    const real = join(store, 'real', '1')
    await mkdir(real, { recursive: true })
    await mkdir(join(store, 'models'))
    await symlink(join(STORE, 'word-vectors'), join(store, 'word-vectors'), 'dir')
    await writeFile(join(real, 'weights.json'), JSON.stringify(cfg))
    await writeFile(join(real, 'weights.bin'), bytes)
    const manifest = { name: 'toy', version: 1, kind: 'text-cnn', labels: ['a', 'b', 'c'] } as unknown as ModelManifest
    await symlink(join(store, 'real'), join(store, 'models', 'toy'), 'dir')
    const linked = join(store, 'models', 'toy', '1')
    const own = await loadCnnClassifier(linked, manifest, undefined as never, { imageMaxPixels: 0 })
    const texts = ['you idiot', 'have a nice day', 'x']
    const mine = (await own.predict(texts)) as number[][]
    t.ok(mine.every(p => Math.abs(p.reduce((a, b) => a + b, 0) - 1) < 1e-9))
    const arrays = await shareCnnClassifier(real)
    t.ok(arrays.weights?.buffer instanceof SharedArrayBuffer, 'weights.bin in shared memory')
    adoptShared({ [folderKey(real)]: arrays })
    t.teardown(() => adoptShared(undefined))
    const sharedModel = await loadCnnClassifier(linked, manifest, undefined as never, { imageMaxPixels: 0 })
    t.same(await sharedModel.predict(texts), mine)
    // the loader reads the process's copy, not the file: a changed last bias there changes the answers
    new DataView(arrays.weights!.buffer, arrays.weights!.byteOffset + arrays.weights!.byteLength - 4).setFloat32(
      0,
      5,
      true
    )
    const changed = await loadCnnClassifier(linked, manifest, undefined as never, { imageMaxPixels: 0 })
    t.ok(
      (await changed.predict(texts)).every((p, i) => p[2]! > mine[i]![2]!),
      'label c gains from its bias'
    )
    await t.rejects(
      loadCnnClassifier(real, { ...manifest, labels: ['a', 'b'] }, undefined as never, { imageMaxPixels: 0 }),
      /3 outputs for 2 labels/
    )
    const broken = join(store, 'broken', '1')
    await mkdir(broken, { recursive: true })
    await cp(real, broken, { recursive: true })
    await truncate(join(broken, 'weights.bin'), 100)
    adoptShared(undefined)
    await t.rejects(loadCnnClassifier(broken, manifest, undefined as never, { imageMaxPixels: 0 }), /ends inside/)
  }
)

t.test("a model of independent scores (output sigmoid) serves each label's sigmoid of its logit", async t => {
  const wv = await loadWordVectors(VECTORS)
  const { cfg, bytes } = toyModel(wv, [2, 3], 0, 11, 4)
  const store = await mkdtemp(join(tmpdir(), 'cnn-'))
  t.teardown(() => rm(store, { recursive: true, force: true }))
  const dir = join(store, 'toy', '1')
  await mkdir(dir, { recursive: true })
  await symlink(join(STORE, 'word-vectors'), join(store, 'word-vectors'), 'dir')
  await writeFile(join(dir, 'weights.json'), JSON.stringify({ ...cfg, output: 'sigmoid' }))
  await writeFile(join(dir, 'weights.bin'), bytes)
  const manifest = {
    name: 'toy',
    version: 1,
    kind: 'text-cnn',
    labels: ['a', 'b', 'c'],
    outputs: [{ name: 'scores' }]
  } as unknown as ModelManifest
  const model = await loadCnnClassifier(dir, manifest, undefined as never, { imageMaxPixels: 0 })
  const texts = ['the cat is not happy', 'stocks fell', '']
  const got = (await model.predict(texts)) as number[][]
  texts.forEach((text, i) => {
    const want = plainLogits(cfg, bytes, wv, text).map(z => 1 / (1 + Math.exp(-z)))
    t.ok(
      got[i]!.every((p, c) => Math.abs(p - want[c]!) < 1e-5),
      `${JSON.stringify(text)}: ${got[i]!.map(p => p.toFixed(5))} = ${want.map(p => p.toFixed(5))}`
    )
  })
  t.ok(Math.abs(got[0]!.reduce((a, b) => a + b, 0) - 1) > 1e-3, 'the scores are not a softmax')
})

t.test(
  "a model that reads a long text in parts: its logits the mean of its parts', each weighing its words " +
    '(softmax and independent scores)',
  async t => {
    const wv = await loadWordVectors(VECTORS)
    const { cfg, bytes } = toyModel(wv, [2, 3], 0, 5, 4)
    const parts = { words: 8, maxChars: 4000 }
    const store = await mkdtemp(join(tmpdir(), 'cnn-'))
    t.teardown(() => rm(store, { recursive: true, force: true }))
    await symlink(join(STORE, 'word-vectors'), join(store, 'word-vectors'), 'dir')
    const plain = cnnForward(cfg, cnnTensors(cfg, bytes), wv)
    const short = 'the soup was cold and the waiter rude'
    const long =
      'The screen is bright and sharp. Battery life is poor, it barely lasts a day.\nSupport never answered my two ' +
        'emails about the charger, which stopped working after a week. I would not buy it again.'
    t.ok(textParts(long, parts).length > 1, 'the long text has several parts')
    t.equal(textParts(short, parts).length, 1, 'the short one is one part')
    for (const output of ['softmax', 'sigmoid'] as const) {
      const dir = join(store, output, '1')
      await mkdir(dir, { recursive: true })
      await writeFile(
        join(dir, 'weights.json'),
        JSON.stringify({ ...cfg, parts, ...(output === 'sigmoid' ? { output } : {}) })
      )
      await writeFile(join(dir, 'weights.bin'), bytes)
      const manifest = {
        name: 'toy',
        version: 1,
        kind: 'text-cnn',
        labels: ['a', 'b', 'c'],
        outputs: [{ name: output === 'sigmoid' ? 'scores' : 'probabilities' }]
      } as unknown as ModelManifest
      const model = await loadCnnClassifier(dir, manifest, undefined as never, { imageMaxPixels: 0 })
      const [ps, pl] = (await model.predict([short, long])) as number[][]
      const scores = (z: ArrayLike<number>) =>
        output === 'sigmoid' ? Array.from(z, v => 1 / (1 + Math.exp(-v))) : softmax(Float64Array.from(z))
      const texts = textParts(long, parts)
      const pieces = texts.map(p => plain(p))
      // each part weighs its words
      const w = texts.map(p => p.split(/\s+/).filter(Boolean).length)
      const total = w.reduce((a, b) => a + b, 0)
      const mean = pieces[0]!.map((_, c) => pieces.reduce((a, z, k) => a + w[k]! * z[c]!, 0) / total)
      t.ok(
        pl!.every((p, c) => Math.abs(p - scores(mean)[c]!) < 1e-9),
        `${output}: the long text = the mean of its ${pieces.length} parts' logits, weighted by their words`
      )
      t.ok(
        pl!.some((p, c) => Math.abs(p - scores(plain(long))[c]!) > 1e-6),
        `${output}: not the text read whole`
      )
      t.ok(
        ps!.every((p, c) => Math.abs(p - scores(plain(short))[c]!) < 1e-12),
        `${output}: a short text is read whole, as before`
      )
      t.same(await model.predict([long]), [pl], `${output}: a text alone = in a batch`)
      model.dispose()
    }
    t.equal(readInParts(plain, undefined), plain, 'no parts: the forward pass itself')
  }
)
