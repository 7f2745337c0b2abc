// A head's arithmetic: dense layers with ReLU, the temperature, softmax and independent scores,
// and the weight file's size checked against its layers.
import t from 'tap'
import { Head, softmax } from '../../../../lib/text/heads/head.js'

const layers = [
  { in: 2, out: 2, relu: true },
  { in: 2, out: 3, relu: false }
]
// [out, in] weights, then the biases, per layer
const w1 = [1, 0, 0, -1, 0, 0]
const w2 = [1, 0, 0, 1, 1, 1, 0, 0, 0.5]

t.test('a two-layer head: ReLU, logits, temperature, softmax', async t => {
  const head = new Head({ layers, temperature: 2, multiLabel: false }, [new Float32Array(w1), new Float32Array(w2)])
  // x = (2, 3): hidden (2, -3) -> ReLU (2, 0); logits (2, 0, 2.5)
  t.same(Array.from(head.logits(new Float32Array([2, 3]))), [2, 0, 2.5])
  const s = head.scores(new Float32Array([2, 3]))
  t.same(
    s.map(v => v.toFixed(6)),
    softmax([1, 0, 1.25]).map(v => v.toFixed(6))
  )
  t.ok(Math.abs(s.reduce((a, b) => a + b, 0) - 1) < 1e-9)
})

t.test('independent scores are a sigmoid each', async t => {
  const head = new Head({ layers, temperature: 1, multiLabel: true }, [new Float32Array(w1), new Float32Array(w2)])
  const s = head.scores(new Float32Array([2, 3]))
  t.same(
    s.map(v => v.toFixed(6)),
    [2, 0, 2.5].map(z => (1 / (1 + Math.exp(-z))).toFixed(6))
  )
})

t.test('weights read from bytes, and a wrong size refused', async t => {
  const bytes = new Uint8Array(new Float32Array([...w1, ...w2]).buffer)
  const head = Head.fromBytes({ layers, temperature: 1, multiLabel: false }, bytes)
  t.same(Array.from(head.logits(new Float32Array([2, 3]))), [2, 0, 2.5])
  t.throws(() => Head.fromBytes({ layers, temperature: 1, multiLabel: false }, bytes.subarray(4)), /the layers take 15/)
  const oneLayer = [new Float32Array(w1)]
  t.throws(() => new Head({ layers, temperature: 1, multiLabel: false }, oneLayer), /one weight array per layer/)
})
