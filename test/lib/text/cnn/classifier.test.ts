// The word-order classifier (kind text-cnn): its token ids, its forward pass against a plain
// convolution written from the kernels' own layout, and the trained model in model-store against
// the trainer's outputs (reference.json).
import t from 'tap'
import { existsSync, readFileSync } from 'node:fs'
import { mkdtemp, rm, symlink, writeFile, mkdir, cp, truncate } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sequenceIds, sequenceTokens, type SequenceConfig } from '../../../../lib/text/cnn/tokens.js'
import {
  cnnForward,
  cnnTensors,
  loadCnnClassifier,
  shareCnnClassifier,
  softmax,
  type CnnConfig
} from '../../../../lib/text/cnn/classifier.js'
import { readInParts, textParts } from '../../../../lib/text/cnn/parts.js'
import { featureIds, type FeatureConfig } from '../../../../lib/text/bag/features.js'
import { CACHED_WORDS, RARE_SLOTS } from '../../../../lib/text/cnn/inputs.js'
import { loadWordVectors, vectorWords, type WordVectors } from '../../../../lib/text/words/vectors.js'
import { negatedWords } from '../../../../lib/text/bag/sentence-input.js'
import { adoptShared, folderKey } from '../../../../lib/text/pool/shared-memory.js'
import { scanStore } from '../../../../lib/serving/registry.js'
import type { ModelManifest } from '../../../../schemas/model-manifest.js'
import { withoutInputCalibration } from '../../../../lib/text/calibration.js'

const STORE = join(import.meta.dirname, '..', '..', '..', '..', 'model-store')
const VECTORS = join(STORE, 'word-vectors', '1')
const SEQ: SequenceConfig = { maxChars: 2000, maxTokens: 128, oovBuckets: 16 }

t.test(
  'tokens: the features tokens, clitics split as the word-vector table spells them, at most maxTokens',
  async t => {
    t.same(sequenceTokens("@user Don't you DAREEEE!! http://x.co y'all 'quoted'", SEQ), [
      'xxuser',
      'do',
      "n't",
      'you',
      'dareee',
      '!',
      '!',
      'xxurl',
      "y'all",
      'quoted'
    ])
    t.same(sequenceTokens("Don't stop", { ...SEQ, maxTokens: 2 }), ['do', "n't"])
    t.same(sequenceTokens('  ', SEQ), [])
    const wv = await loadWordVectors(VECTORS)
    const out = new Int32Array(SEQ.maxTokens)
    const n = sequenceIds('the cat qqqxqqq!', SEQ, wv.row, wv.size, out)
    t.equal(n, 4)
    t.same([out[0], out[1]], [wv.row('the'), wv.row('cat')], 'known words are their rows')
    for (const i of [2, 3]) {
      t.ok(
        (out[i] as number) > wv.size && (out[i] as number) < wv.size + SEQ.oovBuckets,
        'unknown tokens are learned rows after the table'
      )
    }
    t.not(out[2], out[3])
  }
)

/** float16 bits of a number (test weights are multiples of 1/64, exact in float16) */
function toHalf (x: number): number {
  const f = new Float32Array([x])
  const b = new Uint32Array(f.buffer)[0] as number
  if (x === 0) return 0
  return ((b >>> 16) & 0x8000) | ((((b >>> 23) & 0xff) - 112) << 10) | ((b & 0x7fffff) >>> 13)
}

/** a small random model: n-gram bag, learned rows, optional projection, the given widths, optionally the word-vector input through `mean` ReLU units */
function toyModel (
  wv: WordVectors,
  widths: number[],
  proj: number,
  seed: number,
  mean = 0
): { cfg: CnnConfig; bytes: Uint8Array } {
  let s = seed
  const rand = () => {
    s = (s * 1103515245 + 12345) % 2147483648
    return Math.round((s / 2147483648 - 0.5) * 64) / 64
  }
  const bag: FeatureConfig = { buckets: 512, charNgrams: [3, 4], wordBigrams: true, maxFeatures: 300, maxChars: 2000 }
  const F = 3
  const dim = 4
  const D = wv.dim
  const R = proj || D
  const tensors: CnnConfig['tensors'] = []
  const parts: Uint8Array[] = []
  const add = (name: string, shape: number[], dtype: 'float16' | 'float32') => {
    const n = shape.reduce((a, b) => a * b, 1)
    const v = Array.from({ length: n }, rand)
    parts.push(
      dtype === 'float16'
        ? new Uint8Array(Uint16Array.from(v, toHalf).buffer)
        : new Uint8Array(Float32Array.from(v).buffer)
    )
    tensors.push({ name, shape, dtype })
  }
  add('bag', [bag.buckets, dim], 'float16')
  add('oov', [SEQ.oovBuckets, D], 'float16')
  if (proj > 0) add('proj.kernel', [proj, D], 'float32')
  for (const k of widths) {
    add(`conv${k}.kernel`, [F, R, k], 'float32')
    add(`conv${k}.bias`, [F], 'float32')
  }
  const meanFeatures: FeatureConfig = { ...bag, vectors: 'word-vectors/1', negatedVectors: true }
  if (mean > 0) {
    add('mean.kernel', [mean, 2 * D], 'float32')
    add('mean.bias', [mean], 'float32')
  }
  add('out.kernel', [3, dim + F * widths.length + mean], 'float32')
  add('out.bias', [3], 'float32')
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  parts.reduce((at, p) => {
    bytes.set(p, at)
    return at + p.length
  }, 0)
  return {
    cfg: {
      bag,
      sequence: SEQ,
      vectors: 'word-vectors/1',
      vectorScale: 0.2,
      filters: F,
      widths,
      ...(mean > 0 ? { mean: { features: meanFeatures, hidden: mean } } : {}),
      tensors
    },
    bytes
  }
}

/** the same model's logits, computed the plain way: every window of every width from the kernels as stored */
function plainLogits (cfg: CnnConfig, bytes: Uint8Array, wv: WordVectors, text: string): number[] {
  const tensors = cnnTensors(cfg, bytes)
  const half = (h: number) => {
    const s = h & 0x8000 ? -1 : 1
    const e = (h >> 10) & 0x1f
    const f = h & 0x3ff
    return e === 0 ? s * f * 2 ** -24 : s * (1 + f / 1024) * 2 ** (e - 15)
  }
  const val = (name: string) => {
    const t = tensors.get(name)!
    return t.values instanceof Uint16Array ? Array.from(t.values, half) : Array.from(t.values)
  }
  const bagT = val('bag')
  const dim = tensors.get('bag')!.shape[1]!
  const ids = new Int32Array(cfg.bag!.maxFeatures)
  const n = featureIds(text, cfg.bag!, ids)
  const h: number[] = new Array(dim).fill(0)
  for (let k = 0; k < n; k++) for (let d = 0; d < dim; d++) h[d]! += bagT[ids[k]! * dim + d]! / n
  const toks = new Int32Array(SEQ.maxTokens)
  const m = sequenceIds(text, cfg.sequence, wv.row, wv.size, toks)
  const D = wv.dim
  const oov = val('oov')
  let xs = Array.from(toks.slice(0, m), id => {
    if (id >= wv.size) return oov.slice((id - wv.size) * D, (id - wv.size + 1) * D)
    const x = new Float64Array(D)
    wv.addRow(id, cfg.vectorScale, x)
    return Array.from(x)
  })
  if (tensors.has('proj.kernel')) {
    const P = val('proj.kernel')
    const R = tensors.get('proj.kernel')!.shape[0]!
    xs = xs.map(x => Array.from({ length: R }, (_, r) => x.reduce((a, v, d) => a + v * P[r * D + d]!, 0)))
  }
  const R = tensors.get('proj.kernel')?.shape[0] ?? D
  for (const k of cfg.widths) {
    const W = val(`conv${k}.kernel`)
    const b = val(`conv${k}.bias`)
    for (let f = 0; f < cfg.filters; f++) {
      let best = 0
      for (let t = 0; t <= Math.max(m - k, 0); t++) {
        let z = b[f]!
        for (let j = 0; j < k; j++) {
          for (let r = 0; r < R; r++) z += (t + j < m ? xs[t + j]![r]! : 0) * W[(f * R + r) * k + j]!
        }
        best = Math.max(best, z)
      }
      h.push(best)
    }
  }
  if (cfg.mean !== undefined) {
    // the word-vector input (with negatedVectors: the mean of all words, then of the negated ones), written out here
    const x = new Float32Array(2 * D)
    wv.sentence(vectorWords(text, cfg.mean.features.maxChars), x.subarray(0, D))
    wv.sentence(negatedWords(text, cfg.mean.features.maxChars), x.subarray(D))
    const W = val('mean.kernel')
    const b = val('mean.bias')
    for (let j = 0; j < cfg.mean.hidden; j++) {
      h.push(
        Math.max(
          0,
          x.reduce((a, v, d) => a + v * W[j * 2 * D + d]!, b[j]!)
        )
      )
    }
  }
  const K = val('out.kernel')
  const B = val('out.bias')
  return B.map((b, c) => h.reduce((a, v, d) => a + v * K[c * h.length + d]!, b))
}

t.test(
  'the forward pass equals a plain convolution (widths, short and empty texts, unknown tokens, a projection)',
  async t => {
    const wv = await loadWordVectors(VECTORS)
    const texts = [
      'You are such an idiot!!',
      'a',
      '',
      '😀😀😀',
      'qqqxqqq zzzyyy the cat sat on the mat and looked at the dog for a long while',
      'word '.repeat(500)
    ]
    for (const [widths, proj, mean] of [
      [[2, 3, 4], 0, 0],
      [[1, 3], 0, 0],
      [[2, 5], 7, 0],
      [[2, 3], 0, 5]
    ] as Array<[number[], number, number]>) {
      const { cfg, bytes } = toyModel(wv, widths, proj, 7 + proj + mean, mean)
      const forward = cnnForward(cfg, cnnTensors(cfg, bytes), wv)
      for (const text of texts) {
        const got = Array.from(forward(text))
        const want = plainLogits(cfg, bytes, wv, text)
        t.ok(
          got.every((z, c) => Math.abs(z - want[c]!) < 1e-4 * Math.max(1, Math.abs(want[c]!))),
          `widths ${widths} proj ${proj} mean ${mean}: ${JSON.stringify(text.slice(0, 30))}: ${got.map(z => z.toFixed(5))} = ${want.map(z => z.toFixed(5))}`
        )
      }
      t.same(Array.from(forward(texts[0]!)), Array.from(forward(texts[0]!)), 'the same text twice, the same logits')
    }
    const { cfg, bytes } = toyModel(wv, [2], 0, 1)
    t.throws(() => cnnTensors(cfg, bytes.subarray(0, bytes.length - 4)), /ends inside out.bias/)
    t.throws(() => cnnTensors(cfg, new Uint8Array(bytes.length + 4)), /weights.json names/)
    const s = softmax(new Float64Array([1, 2, 3]))
    t.ok(Math.abs(s.reduce((a, b) => a + b, 0) - 1) < 1e-12 && s[2]! > s[1]! && s[1]! > s[0]!)
  }
)

t.test(
  'rarer words share the slots their parts are kept in: words of one slot in one text, and a slot another text took, answer as the plain convolution, and a text answers the same whatever came before',
  async t => {
    const wv = await loadWordVectors(VECTORS)
    // three rarer words (rows past the 10,000 kept for good) of one slot: rows r, r + 4096, r + 8192
    const vocab = readFileSync(join(VECTORS, 'vocab.txt'), 'utf8').split('\n')
    const plain = (w: string | undefined) => w !== undefined && /^[a-z]{3,}$/.test(w)
    let r = CACHED_WORDS
    while (!(plain(vocab[r]) && plain(vocab[r + RARE_SLOTS]) && plain(vocab[r + 2 * RARE_SLOTS]))) r++
    const [a, b, c] = [vocab[r]!, vocab[r + RARE_SLOTS]!, vocab[r + 2 * RARE_SLOTS]!]
    t.same(
      [a, b, c].map(w => wv.row(w)),
      [r, r + RARE_SLOTS, r + 2 * RARE_SLOTS]
    )
    // with tokens the table lacks too (learned rows share the slots)
    const texts = [
      `${a} ${b} ${a} not ${c} ${b} qqqxqq!!`,
      `${c} and ${a} zzyyq`,
      `the ${b} qqqxqq`,
      `${a} ${b} ${a} not ${c} ${b} qqqxqq!!`
    ]
    for (const [widths, mean] of [
      [[2, 3, 4], 0],
      [[2, 3], 5]
    ] as Array<[number[], number]>) {
      const { cfg, bytes } = toyModel(wv, widths, 0, 7 + mean, mean)
      const forward = cnnForward(cfg, cnnTensors(cfg, bytes), wv)
      const got = texts.map(text => Array.from(forward(text)))
      texts.forEach((text, i) => {
        const want = plainLogits(cfg, bytes, wv, text)
        t.ok(
          got[i]!.every((z, k) => Math.abs(z - want[k]!) < 1e-4 * Math.max(1, Math.abs(want[k]!))),
          `widths ${widths} mean ${mean}: ${text}: ${got[i]!.map(z => z.toFixed(5))} = ${want.map(z => z.toFixed(5))}`
        )
      })
      t.same(got[3], got[0], "the same text after others took its words' slots: the same logits")
      t.same(Array.from(forward(texts[0]!)), got[0], "and right after itself, its words' parts found in their slots")
      const fresh = cnnForward(cfg, cnnTensors(cfg, bytes), wv)
      t.same(Array.from(fresh(texts[3]!)), got[0], 'and the same as a model that has read nothing before')
    }
  }
)

t.test(
  "loading: a store of symlinks finds the shared table; the process's shared copy of the weights gives the same answers",
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
  "a model that reads a long text in parts: its logits the mean of its parts', each weighing its words (softmax and independent scores)",
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
      'The screen is bright and sharp. Battery life is poor, it barely lasts a day.\nSupport never answered my two emails about the charger, which stopped working after a week. I would not buy it again.'
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

t.test(
  "the trained text-cnn models: the trainer's probabilities (reference.json), a text alone = in a batch, long inputs",
  async t => {
    const infos = (await scanStore(STORE)).filter(i => i.manifest.kind === 'text-cnn')
    if (infos.length === 0) {
      t.pass('no text-cnn model in model-store')
      return
    }
    for (const info of infos) {
      t.ok(existsSync(join(info.dir, 'reference.json')), `${info.name}: reference.json`)
      const ref = JSON.parse(readFileSync(join(info.dir, 'reference.json'), 'utf8')) as {
        texts: string[]
        probabilities: number[][]
      }
      // the trainer's probabilities are those of the weights alone, before any calibration by input
      const model = await loadCnnClassifier(info.dir, withoutInputCalibration(info.manifest), undefined as never, {
        imageMaxPixels: 0
      })
      const got = (await model.predict(ref.texts)) as number[][]
      const parts = (JSON.parse(readFileSync(join(info.dir, 'weights.json'), 'utf8')) as CnnConfig).parts
      const independent = info.manifest.outputs[0]?.name === 'scores'
      for (const [i, text] of ref.texts.entries()) {
        const pieces = parts === undefined ? [text] : textParts(text, parts)
        if (pieces.length === 1) {
          const diff = Math.max(...got[i]!.map((p, j) => Math.abs(p - ref.probabilities[i]![j]!)))
          t.ok(
            diff < 1e-4,
            `${info.name}: ${JSON.stringify(text.slice(0, 40))}: ${got[i]!.map(p => p.toFixed(5))} vs the trainer's ${ref.probabilities[i]!.map(p => p.toFixed(5))}`
          )
          continue
        }
        // a text read in parts (the trainer read it whole): the mean of its parts' logits, each part as served
        const logits = ((await model.predict(pieces)) as number[][]).map(p =>
          p.map(x => (independent ? Math.log(x / (1 - x)) : Math.log(x)))
        )
        const w = pieces.map(p => p.split(/\s+/).filter(Boolean).length)
        const total = w.reduce((a, b) => a + b, 0)
        const mean = logits[0]!.map((_, c) => logits.reduce((a, z, k) => a + w[k]! * z[c]!, 0) / total)
        const want = independent ? mean.map(z => 1 / (1 + Math.exp(-z))) : softmax(Float64Array.from(mean))
        t.ok(
          got[i]!.every((p, c) => Math.abs(p - want[c]!) < 1e-6),
          `${info.name}: ${JSON.stringify(text.slice(0, 40))} read in ${pieces.length} parts`
        )
      }
      for (const [i, text] of ref.texts.entries()) {
        t.same(await model.predict([text]), [got[i]], `${info.name}: text ${i} alone = in the batch`)
      }
      const [long] = (await model.predict(['you idiot '.repeat(50_000)])) as number[][]
      // a softmax's probabilities sum to 1; independent scores (one sigmoid per label) are each a probability
      t.ok(
        independent ? long!.every(p => p >= 0 && p <= 1) : Math.abs(long!.reduce((a, b) => a + b, 0) - 1) < 1e-9,
        `${info.name}: a 500,000-character text`
      )
      model.dispose()
    }
  }
)
