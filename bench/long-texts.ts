// node --import tsx bench/long-texts.ts: what sentiment's reading of a long text in parts costs
// (lib/text/cnn/parts.ts; docs/performance.md). One model, one thread, one text at a time: the time a
// text takes read in parts (the served model) and read whole (the same weights without `parts`), for
// short texts, long texts made of the project's everyday sentences, and the worst case found: every
// word a rare token (random three-letter words), whose convolution parts are computed afresh.
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadCnnClassifier, type CnnWeightsJson } from '../lib/text/cnn/classifier.js'
import type { ModelManifest } from '../schemas/model-manifest.js'

const STORE = join(import.meta.dirname, '..', 'model-store')
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2)
const served = join(STORE, 'sentiment', '1')
const manifest = JSON.parse(readFileSync(join(served, 'manifest.json'), 'utf8')) as ModelManifest
const cfg = JSON.parse(readFileSync(join(served, 'weights.json'), 'utf8')) as CnnWeightsJson
if (cfg.parts === undefined) throw new Error('model-store/sentiment/1 reads texts whole: nothing to compare')
// the same weights read whole: a store of its own, the weights linked, weights.json without parts
const store = mkdtempSync(join(tmpdir(), 'parts-bench-'))
const whole = join(store, 'sentiment', '1')
mkdirSync(whole, { recursive: true })
symlinkSync(join(STORE, 'word-vectors'), join(store, 'word-vectors'), 'dir')
symlinkSync(join(served, 'weights.bin'), join(whole, 'weights.bin'))
const { parts: _, ...rest } = cfg
writeFileSync(join(whole, 'weights.json'), JSON.stringify(rest))
const models = {
  'in parts': await loadCnnClassifier(served, manifest, undefined as never, { imageMaxPixels: 0 }),
  whole: await loadCnnClassifier(whole, manifest, undefined as never, { imageMaxPixels: 0 })
}

const everyday = readFileSync(join(import.meta.dirname, '..', 'eval', 'data', 'everyday.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map(l => (JSON.parse(l) as { text: string }).text)
let seed = 7
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed / 2147483648
}
const rareWord = () => Array.from({ length: 3 }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('')
/** texts of about `words` words: consecutive everyday sentences, from a different one each time */
const long = (words: number) =>
  everyday.map((_, i) => {
    const out: string[] = []
    let n = 0
    for (let k = i; n < words; k++) {
      const t = everyday[k % everyday.length] as string
      out.push(t)
      n += t.split(' ').length
    }
    return out.join(' ')
  })
const sets: Array<[string, string[]]> = [
  ['short (the everyday texts, median 16 words)', everyday],
  ['about 200 words of everyday sentences', long(200)],
  ['about 2,000 words (only the first 2,000 characters are read)', long(2000).slice(0, 50)],
  [
    'worst case: 100,000 characters of random three-letter words',
    Array.from({ length: 20 }, () =>
      Array.from({ length: 3000 }, () => Array.from({ length: 33 }, rareWord).join(' ') + '.')
        .join(' ')
        .slice(0, 100_000)
    )
  ]
]
for (const [name, texts] of sets) {
  const line: string[] = []
  for (const [how, model] of Object.entries(models)) {
    for (const t of texts.slice(0, 5)) await model.predict([t])
    let n = 0
    const t0 = performance.now()
    while (performance.now() - t0 < SECONDS * 1000) {
      for (const t of texts) {
        await model.predict([t])
        n++
      }
    }
    line.push(`${how} ${(((performance.now() - t0) * 1000) / n).toFixed(0)} us`)
  }
  console.log(`${name.padEnd(64)} ${line.join(', ')} a text`)
}
for (const m of Object.values(models)) m.dispose()
rmSync(store, { recursive: true, force: true })
