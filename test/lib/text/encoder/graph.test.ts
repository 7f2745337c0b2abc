// The edits of an ONNX model as it loads (lib/text/encoder/graph.ts): int8 weights as uint8, so that no CPU
// saturates; an inner tensor of the encoder's graph made an output, and the encoder's word states read from it
// (the NER head reads the 8th layer).
import t from 'tap'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as ort from 'onnxruntime-node'
import { MODEL_STORE } from '../../../helper.js'
import { int8Saturates, loadEncoder } from '../../../../lib/text/encoder/encoder.js'
import { withOutputs, withUnsignedWeights } from '../../../../lib/text/encoder/graph.js'

const DIR = join(MODEL_STORE, 'text-encoder', '1')
const dot = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * (b[i] as number), 0)

// test/fixtures/onnx/matmul-int8.onnx (404 bytes, written with onnx.helper): Y = MatMulInteger(A, B, -, zp),
// A uint8 [1, 64] an input, B int8 [64, 4] all 127 (raw_data), zp int8 [0, 0, -1, 1] (int32_data, as
// quantize_dynamic writes zero points). With A all 255 each pair of products is 64,770: over 16 bits.
const MATMUL = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'onnx', 'matmul-int8.onnx')
const exact = [0, 0, -1, 1].map(zp => 64 * 255 * (127 - zp))

async function product (model: Buffer): Promise<number[]> {
  const session = await ort.InferenceSession.create(model)
  const a = new ort.Tensor('uint8', new Uint8Array(64).fill(255), [1, 64])
  const y = (await session.run({ A: a })).Y
  await session.release()
  return Array.from(y!.data as Int32Array)
}

t.test('int8 weights as uint8: exact products on every CPU', async t => {
  const bytes = await readFile(MATMUL)
  t.same(await product(withUnsignedWeights(Buffer.from(bytes))), exact, 'uint8 weights: exact')
  const plain = await product(bytes)
  // a CPU the encoder does not patch must compute int8 exactly
  if (!int8Saturates()) t.same(plain, exact, 'int8 weights, this CPU: exact')
  else t.pass(`this CPU saturates int8 (${plain[0]} for ${exact[0]}): the encoder loads uint8 weights`)
  t.equal(int8Saturates('flags : fpu avx2 avx512_vnni'), false, 'VNNI: exact')
  t.equal(int8Saturates('flags : fpu avx2'), process.arch === 'x64', 'x64 without VNNI saturates')
})

t.test('withOutputs adds a graph output and leaves the model as it was otherwise', async t => {
  const manifest = JSON.parse(await readFile(join(DIR, 'manifest.json'), 'utf8'))
  const inner = manifest.encoder.inner.layer_8 as string
  const bytes = await readFile(join(DIR, 'model.onnx'))
  t.same(withOutputs(bytes, []), bytes, 'no names: the same bytes')
  const patched = withOutputs(bytes, [inner])
  t.ok(patched.length > bytes.length && patched.length < bytes.length + 200, 'a few bytes more')
  const session = await ort.InferenceSession.create(patched)
  t.same(session.outputNames, ['token_states', inner])
  await session.release()
  t.throws(() => withOutputs(bytes.subarray(0, 3), [inner]), /ONNX model/, 'a cut model is refused, not misread')
})

t.test('word states of an inner layer: one row a word, not the last layer, alike in a batch', async t => {
  const enc = await loadEncoder(DIR, { threads: 2, maxBatch: 8, cacheSize: 10 })
  const words = enc.tokenizer.wordIds(['Angela', 'Merkel', 'besuchte', 'Paris', '.'])
  const other = enc.tokenizer.wordIds('The committee met again on Tuesday'.split(' '))
  const [last] = await enc.wordStates([words])
  const [middle] = await enc.wordStates([words], 'layer_8')
  const [, together] = await enc.wordStates([other, words], 'layer_8')
  t.equal(middle!.length, last!.length)
  const row = (v: Float32Array, w: number) => v.subarray(w * enc.dims, (w + 1) * enc.dims)
  const cos = (a: Float32Array, b: Float32Array) => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b))
  t.ok(cos(row(middle!, 0), row(last!, 0)) < 0.9, 'another layer than the last')
  for (let w = 0; w < 5; w++) t.ok(cos(row(middle!, w), row(together!, w)) > 0.98, `word ${w} in a batch`)
  await t.rejects(enc.wordStates([words], 'layer_3'), /no output layer_3/)
})
