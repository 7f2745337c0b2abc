// The classifiers' embedding tables decoded into shared memory: equal to what TensorFlow.js decodes
// from the same files, and read by a classifier given them instead of a copy of its own.
import t from 'tap'
import { join } from 'node:path'
import { scanStore } from '../../../lib/registry.js'
import { getTf } from '../../../lib/tf.js'
import { fileIO } from '../../../lib/tf-io.js'
import { loadTextClassifier } from '../../../lib/text/classifier.js'
import { sharedEmbedding } from '../../../lib/text/shared-tables.js'

const STORE = join(import.meta.dirname, '..', '..', '..', 'model-store')

t.test('every classifier: the shared table equals the decoded weight, and a classifier reads the table it is given', async (t) => {
  const { tf } = await getTf()
  const infos = (await scanStore(STORE)).filter((i) => i.manifest.kind === 'text-classifier')
  t.ok(infos.length >= 6, `${infos.length} classifiers`)
  for (const info of infos) {
    const table = await sharedEmbedding(info.dir)
    t.ok(table !== null && table.buffer instanceof SharedArrayBuffer, `${info.name}: a shared table`)
    const model = await tf.loadLayersModel(fileIO(join(info.dir, 'model.json')))
    const expected = model.getLayer('features').getWeights()[0]!.dataSync() as Float32Array
    let differ = table === null || table.length !== expected.length ? -1 : 0
    for (let i = 0; differ === 0 && i < expected.length; i++) if (table![i] !== expected[i]) differ = i + 1
    t.equal(differ, 0, `${info.name}: ${expected.length} values, all equal to TensorFlow.js's`)
    model.dispose()
    if (table === null) continue
    const texts = ['I love it!', 'the meeting is at noon']
    const own = await loadTextClassifier(info.dir, info.manifest, tf, { imageMaxPixels: 0 })
    const given = await loadTextClassifier(info.dir, info.manifest, tf, { imageMaxPixels: 0, sharedTables: { [info.dir]: table } })
    t.same(await given.predict(texts), await own.predict(texts), `${info.name}: the same answers from the shared table`)
    // a table of zeros given instead: the answers move, so the given table is what is read
    const zeros = new Float32Array(new SharedArrayBuffer(table.length * 4))
    const blank = await loadTextClassifier(info.dir, info.manifest, tf, { imageMaxPixels: 0, sharedTables: { [info.dir]: zeros } })
    t.notSame(await blank.predict(texts), await own.predict(texts), `${info.name}: reads the table it was given`)
    own.dispose(); given.dispose(); blank.dispose()
  }
})
