// The tuned sentiment head (model-store/sentiment-multilingual, kind encoder-tuned-head) through its loader:
// the file its manifest names, probabilities, padding masked in the head, a batch of texts of unlike lengths
// labelled as each text alone, and a manifest without its settings refused.
import t from 'tap'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as ort from 'onnxruntime-node'
import { loadEncoderTunedHead } from '../../../../lib/text/heads/tuned.js'
import { scanStore } from '../../../../lib/serving/registry.js'
import type { ModelManifest } from '../../../../schemas/model-manifest.js'
import { MODEL_STORE } from '../../../helper.js'

async function tuned () {
  const info = (await scanStore(MODEL_STORE)).find(i => i.name === 'sentiment-multilingual')!
  return { info, model: await loadEncoderTunedHead(info.dir, info.manifest, null, { imageMaxPixels: 0 }) }
}

t.test('the head the manifest names gives probabilities over its labels', async t => {
  const { info, model } = await tuned()
  t.equal(info.manifest.kind, 'encoder-tuned-head')
  const sums = (info.manifest as { checksums?: Record<string, string> }).checksums
  const sha = createHash('sha256').update(readFileSync(join(info.dir, 'head.onnx'))).digest('hex')
  t.equal(sha, sums?.['head.onnx'], 'head.onnx is the file the manifest names')
  const texts = [
    'Das Essen war kalt und der Kellner unfreundlich.',
    'Me encanta este teléfono, funciona de maravilla.'
  ]
  const [de, es] = await model.predict(texts)
  for (const p of [de!, es!]) {
    t.equal(p.length, info.manifest.labels.length)
    t.ok(Math.abs(p.reduce((a, b) => a + b, 0) - 1) < 1e-5, 'they sum to 1')
  }
  const top = (p: number[]) => info.manifest.labels[p.indexOf(Math.max(...p))]
  t.equal(top(de!), 'negative')
  t.equal(top(es!), 'positive')
})

t.test('the head masks padding: the tokens past a text change nothing but int8 rounding', async t => {
  const { info } = await tuned()
  const head = await ort.InferenceSession.create(join(info.dir, 'head.onnx'))
  const dims = 384
  const tokens = 6
  const width = 20
  // one text's states, alone and padded to 20 tokens with states of another text's size and spread
  const own = Float32Array.from({ length: tokens * dims }, (_, i) => Math.sin(i * 0.37) * 0.8)
  const padded = new Float32Array(width * dims)
  padded.set(own)
  for (let i = tokens * dims; i < padded.length; i++) padded[i] = Math.cos(i * 0.11) * 0.8
  const run = async (states: Float32Array, w: number) => {
    const mask = Float32Array.from({ length: w }, (_, i) => (i < tokens ? 1 : 0))
    const out = await head.run({
      states: new ort.Tensor('float32', states, [1, w, dims]),
      mask: new ort.Tensor('float32', mask, [1, w])
    })
    return Array.from(out.logits!.data as Float32Array)
  }
  const alone = await run(own, tokens)
  const withPads = await run(padded, width)
  const unmasked = await head.run({
    states: new ort.Tensor('float32', padded, [1, width, dims]),
    mask: new ort.Tensor('float32', new Float32Array(width).fill(1), [1, width])
  })
  const gap = (a: number[], b: number[]) => Math.max(...a.map((x, c) => Math.abs(x - (b[c] as number))))
  t.ok(gap(alone, withPads) < 0.05, `masked padding moves the logits by ${gap(alone, withPads).toFixed(4)}`)
  const read = Array.from(unmasked.logits!.data as Float32Array)
  t.ok(gap(alone, read) > 0.1, `the same tokens unmasked move them by ${gap(alone, read).toFixed(3)}`)
  await head.release()
})

t.test('a batch of short and long texts: each text keeps its label alone', async t => {
  const { info, model } = await tuned()
  const long = 'The battery lasts two days, the screen is sharp and the speakers are loud enough for a room. '.repeat(4)
  const texts = ['Not bad at all.', long, 'Nunca más vuelvo a este hotel.', 'ok']
  const together = await model.predict(texts)
  const top = (p: number[]) => info.manifest.labels[p.indexOf(Math.max(...p))]
  for (const [i, text] of texts.entries()) {
    const [alone] = await model.predict([text])
    // the int8 encoder quantises a pass's activations with one scale: a text's states move a little with its
    // batch mates (docs/models/text-encoder.md), which the tuned layers carry into the scores
    const gap = Math.max(...alone!.map((p, c) => Math.abs(p - together[i]![c]!)))
    t.ok(gap < 0.2, `${text.slice(0, 20)}: ${gap.toFixed(3)} from its score alone`)
    t.equal(top(alone!), top(together[i]!), `${text.slice(0, 20)}: the same label`)
  }
})

t.test('a manifest without its tuned settings is refused with a reason', async t => {
  const { info } = await tuned()
  const bare = { ...info.manifest, tuned: undefined } as unknown as ModelManifest
  await t.rejects(loadEncoderTunedHead(info.dir, bare, null, { imageMaxPixels: 0 }), /tuned\.encoderOutput/)
})
