// npm run bench:encoder: the text encoder alone (model-store/text-encoder), on this machine: one short
// text at a time (p50, p90 of 200) and batches of 100 short texts (texts/s), with the cache off; then,
// when python3 has onnxruntime and tokenizers, the same model and tokenizer in Python (2 threads) on
// the same texts, side by side: the graph as the service loads it (int8 weights as uint8 where the CPU would
// saturate: lib/text/encoder/graph.ts). Prints figures; asserts nothing.
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { int8Saturates, loadEncoder } from '../lib/text/encoder/encoder.js'
import { withUnsignedWeights } from '../lib/text/encoder/graph.js'

const DIR = join(import.meta.dirname, '..', 'model-store', 'text-encoder', '1')
const WORDS = 'the service was quick and friendly but my order arrived late and cold again today'.split(' ')
const text = (i: number): string => WORDS.slice(i % 5, 8 + (i % 7)).join(' ') + ` ${i}`
const texts = Array.from({ length: 1000 }, (_, i) => text(i))
const pct = (xs: number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.floor(p * (xs.length - 1))] as number
}

const enc = await loadEncoder(DIR, { threads: 2, maxBatch: 100, cacheSize: 0 })
await enc.embed(texts.slice(0, 100))
const single: number[] = []
for (let i = 0; i < 200; i++) {
  const t0 = performance.now()
  await enc.embed([`one text, number ${i}, read alone`])
  single.push(performance.now() - t0)
}
const t0 = performance.now()
for (let at = 0; at < texts.length; at += 100) await enc.embed(texts.slice(at, at + 100).map(t => t + ' b'))
const node = texts.length / ((performance.now() - t0) / 1000)
const one = `one text p50 ${pct(single, 0.5).toFixed(2)} ms, p90 ${pct(single, 0.9).toFixed(2)} ms`
console.log(`node (onnxruntime-node, 2 threads): ${one}; batches of 100: ${node.toFixed(0)} texts/s`)
await enc.close()

const script = `
import sys, json, time, onnxruntime as ort, numpy as np
from tokenizers import Tokenizer
d, texts, model = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
tok = Tokenizer.from_file(d + '/tokenizer.json')
o = ort.SessionOptions(); o.intra_op_num_threads = 2; o.inter_op_num_threads = 1
s = ort.InferenceSession(model, o)
def embed(batch):
    enc = tok.encode_batch(['query: ' + t + ' b' for t in batch])
    w = max(len(e.ids) for e in enc)
    ids = np.ones((len(enc), w), dtype=np.int64); mask = np.zeros((len(enc), w), dtype=np.int64)
    for i, e in enumerate(enc): ids[i, :len(e.ids)] = e.ids; mask[i, :len(e.ids)] = 1
    h = s.run(None, {'input_ids': ids, 'attention_mask': mask})[0]
    v = (h * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
    return v / np.linalg.norm(v, axis=1, keepdims=True)
embed(texts[:100]); t0 = time.perf_counter()
for at in range(0, len(texts), 100): embed(texts[at:at + 100])
print(json.dumps(len(texts) / (time.perf_counter() - t0)))
`
const file = join(tmpdir(), 'bench-encoder-texts.json')
writeFileSync(file, JSON.stringify(texts))
const bytes = readFileSync(join(DIR, 'model.onnx'))
const model = join(tmpdir(), 'bench-encoder-model.onnx')
writeFileSync(model, int8Saturates() ? withUnsignedWeights(bytes) : bytes)
const py = spawnSync(process.env.PYTHON ?? 'python3', ['-c', script, DIR, file, model], { encoding: 'utf8' })
if (py.status !== 0) {
  const why = (py.stderr || py.error?.message || '').trim().split('\n').at(-1)
  console.log(`python reference skipped: ${why}`)
} else {
  const ref = Number(py.stdout.trim())
  const ratio = (node / ref).toFixed(2)
  const name = 'python (onnxruntime, same model and tokenizer, 2 threads)'
  console.log(`${name}: ${ref.toFixed(0)} texts/s; node / python ${ratio}x`)
}
