// The word-order classifier (kind text-cnn): its token ids, its forward pass against a plain
// convolution written from the kernels' own layout, and the trained model in model-store against
// the trainer's outputs (reference.json).
import t from 'tap'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { sequenceIds, sequenceTokens } from '../../../../lib/text/cnn/tokens.js'
import {
  cnnForward,
  cnnTensors,
  loadCnnClassifier,
  softmax,
  type CnnWeightsJson
} from '../../../../lib/text/cnn/classifier.js'
import { textParts } from '../../../../lib/text/cnn/parts.js'
import { CACHED_WORDS, RARE_SLOTS } from '../../../../lib/text/cnn/inputs.js'
import { loadWordVectors } from '../../../../lib/text/words/vectors.js'
import { scanStore } from '../../../../lib/serving/registry.js'
import { withoutInputCalibration } from '../../../../lib/text/calibration.js'
import { plainLogits, SEQ, STORE, toyModel, VECTORS } from './toy-cnn.js'

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
          `widths ${widths} proj ${proj} mean ${mean}: ${JSON.stringify(text.slice(0, 30))}: ` +
            `${got.map(z => z.toFixed(5))} = ${want.map(z => z.toFixed(5))}`
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
  'rarer words share the slots their parts are kept in: words of one slot in one text, and a slot another text took, ' +
    'answer as the plain convolution, and a text answers the same whatever came before',
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
      const parts = (JSON.parse(readFileSync(join(info.dir, 'weights.json'), 'utf8')) as CnnWeightsJson).parts
      const independent = info.manifest.outputs[0]?.name === 'scores'
      for (const [i, text] of ref.texts.entries()) {
        const pieces = parts === undefined ? [text] : textParts(text, parts)
        if (pieces.length === 1) {
          const diff = Math.max(...got[i]!.map((p, j) => Math.abs(p - ref.probabilities[i]![j]!)))
          t.ok(
            diff < 1e-4,
            `${info.name}: ${JSON.stringify(text.slice(0, 40))}: ${got[i]!.map(p => p.toFixed(5))} ` +
              `vs the trainer's ${ref.probabilities[i]!.map(p => p.toFixed(5))}`
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
