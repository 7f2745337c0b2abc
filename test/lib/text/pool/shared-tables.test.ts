// The classifiers' embedding tables decoded into shared memory: equal to what TensorFlow.js decodes
// from the same files, and read by a classifier given them instead of a copy of its own.
import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { scanStore } from '../../../../lib/serving/registry.js'
import { getTf } from '../../../../lib/runtime/tf.js'
import { fileIO } from '../../../../lib/runtime/tf-io.js'
import { loadTextClassifier, shareClassifier } from '../../../../lib/text/bag/classifier.js'
import { adoptShared, folderKey } from '../../../../lib/text/pool/shared-memory.js'
import { halves, sharedEmbedding, withoutEmbeddingTable } from '../../../../lib/text/pool/shared-tables.js'

const STORE = join(import.meta.dirname, '..', '..', '..', '..', 'model-store')
const ctx = { imageMaxPixels: 0 }

/** the classifier of `dir` loaded as a text worker that was given `table` loads it */
async function loadGiven (
  info: { dir: string; manifest: Parameters<typeof loadTextClassifier>[1] },
  tf: Parameters<typeof loadTextClassifier>[2],
  table: Float32Array | Uint16Array
) {
  adoptShared({
    [folderKey(info.dir)]: table instanceof Uint16Array ? { 'embeddings.float16': table } : { embeddings: table }
  })
  try {
    return await loadTextClassifier(info.dir, info.manifest, tf, ctx)
  } finally {
    adoptShared(undefined)
  }
}

t.test(
  'every classifier: the shared table equals the decoded weight, and a classifier reads the table it is given',
  async t => {
    const { tf } = await getTf()
    const infos = (await scanStore(STORE)).filter(i => i.manifest.kind === 'text-classifier')
    // target_sentiment (the English classifiers are text-cnn models, whose weights are shared whole:
    // test/lib/text/cnn/classifier-load.test.ts; multilingual sentiment and emotion are heads on the text encoder)
    t.ok(infos.length >= 1, `${infos.length} classifiers`)
    for (const info of infos) {
      const table = await sharedEmbedding(info.dir)
      t.ok(table !== null && table.buffer instanceof SharedArrayBuffer, `${info.name}: a shared table`)
      const model = await tf.loadLayersModel(fileIO(join(info.dir, 'model.json')))
      const expected = model.getLayer('features').getWeights()[0]!.dataSync() as Float32Array
      const stored = JSON.parse(readFileSync(join(info.dir, 'model.json'), 'utf8')).weightsManifest[0].weights.find(
        (w: { name: string }) => w.name === 'features/embeddings'
      )
      t.equal(
        table instanceof Uint16Array,
        stored.quantization?.dtype === 'float16',
        `${info.name}: a float16 table keeps its bits (half the memory), others are float32`
      )
      const half = halves()
      const value = (i: number) => (table instanceof Uint16Array ? half[table[i]!] : table![i])
      let differ = table === null || table.length !== expected.length ? -1 : 0
      for (let i = 0; differ === 0 && i < expected.length; i++) if (value(i) !== expected[i]) differ = i + 1
      t.equal(differ, 0, `${info.name}: ${expected.length} values, all equal to TensorFlow.js's`)
      model.dispose()
      if (table === null) continue
      const texts = ['I love it!', 'the meeting is at noon']
      const own = await loadTextClassifier(info.dir, info.manifest, tf, ctx)
      const shares = await shareClassifier(info.dir)
      const sharedTable = shares[table instanceof Uint16Array ? 'embeddings.float16' : 'embeddings']
      t.ok(
        sharedTable !== undefined && Buffer.from(sharedTable.buffer).equals(Buffer.from(table.buffer)),
        `${info.name}: what the registry shares with the workers`
      )
      const given = await loadGiven(info, tf, table)
      t.same(
        await given.predict(texts),
        await own.predict(texts),
        `${info.name}: the same answers from the shared table`
      )
      // a table of zeros given instead: the answers move, so the given table is what is read
      const zeros =
        table instanceof Uint16Array
          ? new Uint16Array(new SharedArrayBuffer(table.length * 2))
          : new Float32Array(new SharedArrayBuffer(table.length * 4))
      const blank = await loadGiven(info, tf, zeros)
      t.notSame(await blank.predict(texts), await own.predict(texts), `${info.name}: reads the table it was given`)
      own.dispose()
      given.dispose()
      blank.dispose()
    }
  }
)

t.test(
  'with a shared table, TensorFlow.js loads a one-row stub of the embedding and the other weights unchanged',
  async t => {
    const { tf } = await getTf()
    const info = (await scanStore(STORE)).find(i => i.name === 'target_sentiment')!
    const full = await tf.loadLayersModel(fileIO(join(info.dir, 'model.json')))
    const stub = withoutEmbeddingTable(join(info.dir, 'model.json'))
    const before = tf.memory().numBytes
    const small = await tf.loadLayersModel(stub.handler)
    const [w] = full.getLayer('features').getWeights()
    t.same(small.getLayer('features').getWeights()[0]!.shape, [1, w!.shape[1]], 'the stub is one row')
    t.equal(stub.rows(), w!.shape[0], 'the real row count is kept')
    t.ok(
      tf.memory().numBytes - before < 1024 * 1024,
      `the stubbed model takes ${tf.memory().numBytes - before} bytes in TF.js, not the table's ${w!.size * 4}`
    )
    const names = (m: typeof full) => m.weights.map(v => v.originalName).filter(n => !n.startsWith('features/'))
    t.same(names(small), names(full), 'the same other weights')
    for (const name of names(full)) {
      const a = full.weights
        .find(v => v.originalName === name)!
        .read()
        .dataSync()
      const b = small.weights
        .find(v => v.originalName === name)!
        .read()
        .dataSync()
      t.same(Array.from(b), Array.from(a), `${name} unchanged`)
    }
    full.dispose()
    small.dispose()
    // a shared table of the wrong size is refused, not read past its end
    const short = new Float32Array(new SharedArrayBuffer(64 * 4))
    await t.rejects(loadGiven(info, tf, short), /shared embedding table has 64 values/)
  }
)
