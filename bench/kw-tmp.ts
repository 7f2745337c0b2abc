import { readFileSync, readdirSync } from 'node:fs'
import { getTf } from '../lib/tf.js'
import { loadKeywords } from '../lib/text/keywords.js'
const dir = 'model-store/keywords/' + readdirSync('model-store/keywords').sort().pop()
const manifest = JSON.parse(readFileSync(dir + '/manifest.json', 'utf8'))
const { tf } = await getTf('wasm')
const m = await loadKeywords(dir, manifest, tf, {} as any)
const src = readdirSync('../shared/datasets/keyphrase/semeval2010').slice(0, 5)
console.log(src)
const docs = readFileSync('../shared/datasets/keyphrase/semeval2010/semeval2010.jsonl', 'utf8').trim().split('\n').map((l) => JSON.parse(l).text as string)
const texts: string[] = []
for (const d of docs) for (let at = 0; at + 7000 <= d.length && texts.length < 200; at += 7000) texts.push(d.slice(at, at + 7000))
for (const n of [1, 200]) {
  const t0 = performance.now()
  await m.predict(texts.slice(0, n).map((text) => ({ text, lang: 'en' })))
  console.log(n, Math.round(performance.now() - t0), 'ms')
}
