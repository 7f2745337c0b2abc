// The encoder's NER head (model-store/ner-multilingual) through its loader: French names, offsets into
// the caller's text, sentences longer than the encoder reads, and a batch answered as its texts alone.
import t from 'tap'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadEncoderNer } from '../../../../lib/text/heads/ner.js'
import type { Entity, NerInput } from '../../../../lib/text/ner/tagger.js'
import { scanStore } from '../../../../lib/serving/registry.js'
import { MODEL_STORE } from '../../../helper.js'

async function trained () {
  const info = (await scanStore(MODEL_STORE)).find(i => i.name === 'ner-multilingual')!
  return { info, model: await loadEncoderNer(info.dir, info.manifest, null, { imageMaxPixels: 0 }) }
}
const brief = (es: Entity[]) => es.map(e => [e.name, e.category])
const fr = (text: string): NerInput => ({ text, lang: 'fr' })

t.test('French: people and places of a plain sentence', async t => {
  const { info, model } = await trained()
  t.equal(info.manifest.kind, 'encoder-ner')
  t.ok(info.manifest.languages.includes('fr'))
  const sums = (info.manifest as { checksums?: Record<string, string> }).checksums
  const sha = createHash('sha256')
    .update(readFileSync(join(info.dir, 'head.onnx')))
    .digest('hex')
  t.equal(sha, sums?.['head.onnx'], 'head.onnx is the file the manifest names')
  const texts = ['Emmanuel Macron a rencontré Angela Merkel à Berlin.', 'Il fait beau.']
  const [one, none] = await model.predict(texts.map(fr))
  t.same(brief(one!), [
    ['Emmanuel Macron', 'name'],
    ['Angela Merkel', 'name'],
    ['Berlin', 'place']
  ])
  t.same(none, [])
})

t.test("offsets index the caller's text through emoji, CRLF and combining marks", async t => {
  const { model } = await trained()
  const texts = [
    'Zoë 👍🏽 a écrit :\r\n\r\nEmmanuel Macron est allé à Marseille 😀.',
    'Le café de Ze\u0301lie à Lyon.\tJean Dupont travaille chez Renault à Paris !'
  ]
  const out = await model.predict(texts.map(fr))
  let found = 0
  out.forEach((es, i) => {
    let last = 0
    for (const e of es) {
      t.equal(texts[i]!.slice(e.start, e.end), e.name, e.name)
      t.ok(e.start >= last, 'in text order')
      last = e.end
      t.ok(e.confidence_score >= 0 && e.confidence_score <= 1)
      t.ok(['name', 'group', 'place'].includes(e.category))
      found++
    }
  })
  t.ok(found >= 3, `${found} entities`)
})

t.test('a sentence longer than the encoder reads is read in parts, to its end', async t => {
  const { model } = await trained()
  // sixty clauses of ten people and ten towns (one clause said sixty times over reads worse: the card says so)
  const people = ['Emmanuel Macron', 'Angela Merkel', 'Jean Dupont', 'Marie Curie', 'Pierre Martin']
  const towns = ['Marseille', 'Lyon', 'Toulouse', 'Nantes', 'Lille', 'Rennes', 'Nice']
  const clause = (i: number) => `puis ${people[i % 5]} ${i % 2 ? 'a visité' : 'est allé à'} ${towns[i % 7]}, `
  const text = Array.from({ length: 60 }, (_, i) => clause(i)).join('') + 'et enfin à Bordeaux.'
  const [es] = await model.predict([fr(text)])
  t.ok(es!.length > 100, `${es!.length} entities`)
  t.ok(
    es!.some(e => e.name === 'Bordeaux' && e.start === text.indexOf('Bordeaux')),
    'the last place is found'
  )
  for (const e of es!) t.equal(text.slice(e.start, e.end), e.name)
})

t.test('a batch answers as its texts alone, in order', async t => {
  const { model } = await trained()
  const texts = ['Jean Dupont habite à Lyon.', '', 'Il pleut.', 'La SNCF a annoncé une grève à Lille.']
  const batch = await model.predict(texts.map(fr))
  const alone = []
  for (const text of texts) alone.push((await model.predict([fr(text)]))[0])
  t.same(
    batch.map(brief),
    alone.map(es => brief(es!))
  )
  t.same(batch[1], [])
})
