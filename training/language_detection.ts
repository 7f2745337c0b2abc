// npm run train -- language_detection: the Danish/Norwegian refiner of the language identifier.
// lid.176 (pretrained, npm fasttext.wasm.js) takes Norwegian Bokmål for Danish often; when it answers
// either, a small fastText-style classifier trained here on XED subtitle lines (training/DATA.md)
// chooses between the two. Writes model.json, weights.bin, features.json and the manifest of
// model-store/language_detection/1 (the identifier's own weights stay in the npm package).
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { getTf } from '../lib/tf.js'
import type { FeatureConfig } from '../lib/text/features.js'
import { LANGUAGE_NAMES } from '../lib/text/languages.js'
import { REFINED } from '../lib/text/langid.js'
import { predictAll, saveModel, train } from './fasttext.js'
import { isValidation, xed } from './multilingual-data.js'

const cfg: FeatureConfig = { buckets: 1 << 15, charNgrams: [1, 4], wordBigrams: false, maxFeatures: 1500, maxChars: 2000 }
const opts = { dim: 16, epochs: 10, lr: 0.3, seed: 5, balance: true, classes: REFINED.length }
const rows = REFINED.flatMap((l, label) => xed(l).map((r) => ({ text: r.text, label })))
const trainRows = rows.filter((r) => !isValidation(r.text))
const val = rows.filter((r) => isValidation(r.text))
const accuracy = (p: number[][], rs: typeof rows) => rs.filter((r, i) => (p[i]![1]! > p[i]![0]! ? 1 : 0) === r.label).length / rs.length
const w = train(trainRows, cfg, opts, (w) => ({ name: 'accuracy', value: accuracy(predictAll(w, val.map((r) => r.text), cfg), val) }))
const acc = accuracy(predictAll(w, val.map((r) => r.text), cfg), val)
process.stderr.write(`da/no validation accuracy ${acc.toFixed(4)} (${val.length} lines)\n`)

const dir = process.env.TRAIN_OUT ?? join(import.meta.dirname, '..', 'model-store', 'language_detection', '1')
await mkdir(dir, { recursive: true })
const { tf } = await getTf()
await saveModel(tf, w, join(dir, 'model.json'))
await writeFile(join(dir, 'features.json'), JSON.stringify(cfg, null, 2) + '\n')
const manifest = {
  name: 'language_detection',
  version: 1,
  kind: 'language-id',
  description: `Language identification: fastText lid.176 (pretrained, 176 languages; npm fasttext.wasm.js) answering the ${Object.keys(LANGUAGE_NAMES).length} languages of lib/text/languages.ts with their English names, and a ${REFINED.join('/')} classifier trained here that decides between the two when lid.176 answers either.`,
  languages: Object.keys(LANGUAGE_NAMES),
  labels: Object.keys(LANGUAGE_NAMES),
  inputs: [{ name: 'text', dtype: 'string', shape: [null] }],
  outputs: [{ name: 'language', dtype: 'string', shape: [null], description: 'ISO 639-1 code, English name and probability' }],
  files: ['model.json', 'weights.bin', 'features.json'],
  training: {
    command: 'npm run train -- language_detection (the da/no refiner; lid.176 is not trained here)',
    seed: opts.seed,
    data: [
      { name: 'fastText lid.176.ftz (Joulin et al. 2016; Wikipedia, Tatoeba, SETimes), pretrained', path: 'fasttext.wasm.js', licence: 'model CC BY-SA 3.0 (fasttext.cc); package MIT' },
      { name: 'XED projected subtitle lines (Helsinki-NLP/XED@76666d2, Projections/{da,no}-projections.tsv)', path: 'github:Helsinki-NLP/XED (training/DATA.md)', licence: 'CC BY 4.0', split: '85% of lines by a hash of the text (15% validation)', rows: trainRows.length }
    ],
    notes: `lid.176's top 8 labels are read and the first one in the answered set is returned; Nynorsk (nn) is answered as Norwegian (no). When that is da or no, the refiner (fastText-style embedding bag, dim ${opts.dim}, ${cfg.buckets} buckets of word unigrams and char 1-4-grams, ${opts.epochs} epochs from lr ${opts.lr}, class-balanced) picks between them; the probability is P(da or no) from lid.176 times the refiner's.`
  },
  metrics: [{ dataset: 'XED da + no subtitle lines', split: 'validation (15% by hash)', metric: 'accuracy, da against no', value: Number(acc.toFixed(4)), baseline: 'lid.176 alone, restricted to da/no: 0.58 (da 0.899, no 0.443)' }],
  created: new Date().toISOString()
}
await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
process.stderr.write('wrote model-store/language_detection/1\n')
