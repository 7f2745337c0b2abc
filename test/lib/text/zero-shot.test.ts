import { test } from 'tap'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { loadWordVectors, vectorWords, type WordVectors } from '../../../lib/text/words/vectors.js'
import { labelVector, nearestRows, zeroShot, type ZeroShotSettings } from '../../../lib/text/zero-shot.js'

const dir = join(import.meta.dirname, '..', '..', '..', 'model-store', 'word-vectors', '1')
const skip = existsSync(dir) ? false : 'model-store/word-vectors missing'
const S: ZeroShotSettings = { neighbours: 4, neighbourPool: 30000, wordTemperature: 0.15, sharpness: 4, common: true }

function unit (v: WordVectors, row: number): Float32Array {
  const w = new Float32Array(v.dim)
  v.addRow(row, 1, w)
  const n = Math.hypot(...w)
  return w.map(x => x / n)
}
const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] as number), 0)
function nameVector (v: WordVectors, name: string): Float32Array {
  const o = new Float32Array(v.dim)
  v.sentence(vectorWords(name), o)
  return o
}

test(
  'nearestRows finds what a full scan of the pool finds, best first, without the skipped rows',
  { skip },
  async t => {
    const v = await loadWordVectors(dir)
    const to = nameVector(v, 'weather')
    const skipRows = new Set([v.row('weather')])
    const got = nearestRows(v, to, 6, 5000, skipRows)
    const all = Array.from({ length: 5000 }, (_, r) => ({ row: r, similarity: cos(unit(v, r), to) }))
      .filter(x => !skipRows.has(x.row) && Number.isFinite(x.similarity))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, 6)
    t.same(
      got.map(x => x.row),
      all.map(x => x.row)
    )
    for (let i = 1; i < got.length; i++) t.ok(got[i - 1]!.similarity >= got[i]!.similarity)
    t.ok(got.every(x => x.row < 5000))
    t.same(nearestRows(v, to, 0, 5000), [])
  }
)

test(
  'a bare label is expanded with words among the 1% nearest to its name, not its own words; cached; keywords replace ' +
    'the expansion',
  { skip },
  async t => {
    const v = await loadWordVectors(dir)
    for (const name of ['sports', 'Food & Drink', 'religion']) {
      const l = labelVector(v, { name, keywords: [] }, S)!
      t.equal(l.expansion.length, S.neighbours, name)
      const own = vectorWords(name).map(w => v.row(w))
      t.notOk(
        l.expansion.some(r => own.includes(r)),
        `${name}: its own words are not its neighbours`
      )
      // how related the neighbours are, against the name's similarity to every word of the pool
      const to = nameVector(v, name)
      const sims = Array.from({ length: S.neighbourPool }, (_, r) => cos(unit(v, r), to))
        .filter(Number.isFinite)
        .sort((a, b) => b - a)
      const top1 = sims[Math.floor(sims.length / 100)] as number
      for (const r of l.expansion) {
        t.ok(cos(unit(v, r), to) >= top1, `${name}: neighbour row ${r} is among the 1% nearest words`)
      }
      t.ok(Math.abs(cos(l.vector, l.vector) - 1) < 1e-5, 'a unit vector')
      t.ok(cos(l.vector, to) > 0.8, 'the expansion stays near the name')
      t.equal(labelVector(v, { name, keywords: [] }, S), l, 'cached')
    }
    t.same(labelVector(v, { name: 'sports', keywords: ['match'] }, S)!.expansion, [], 'keywords: no expansion')
    t.same(labelVector(v, { name: 'sports', keywords: [] }, { ...S, neighbours: 0 })!.expansion, [])
    t.equal(labelVector(v, { name: 'qzxvwpt', keywords: [] }, S), null, 'no known word')
    t.ok(labelVector(v, { name: 'qzxvwpt', keywords: ['recipe', 'butter'] }, S) !== null, 'keywords alone will do')
  }
)

test(
  'zeroShot: probabilities summing to 1, the fitting label first, uniform for a text of unknown words',
  { skip },
  async t => {
    const v = await loadWordVectors(dir)
    const labels = ['politics', 'sports', 'cooking', 'technology'].map(name => ({ name, keywords: [] }))
    const cases: Array<[string, number]> = [
      ['The senate passed the bill after a long debate between the parties.', 0],
      ['The striker scored twice as the team won the final in extra time.', 1],
      ['Stir the butter and flour, then bake the dough for twenty minutes.', 2],
      ['The new chip makes laptops faster and the software runs in the cloud.', 3]
    ]
    for (const [text, want] of cases) {
      const p = zeroShot(v, { text, labels }, S)
      t.equal(p.length, 4)
      t.ok(Math.abs(p.reduce((a, b) => a + b, 0) - 1) < 1e-9)
      t.equal(p.indexOf(Math.max(...p)), want, text)
      t.ok(p[want]! > 0.4, `${text}: a clear winner (${p[want]!.toFixed(2)})`)
    }
    t.same(zeroShot(v, { text: 'qzxvwpt qqqxqqq', labels }, S), [0.25, 0.25, 0.25, 0.25])
    const flat = zeroShot(v, { text: cases[1]![0], labels }, { ...S, sharpness: 1 })
    const sharp = zeroShot(v, { text: cases[1]![0], labels }, S)
    t.ok(sharp[1]! > flat[1]!, 'sharpness raises the winner')
    // keywords steer a label whose name says nothing
    const kw = zeroShot(
      v,
      {
        text: cases[2]![0],
        labels: [
          { name: 'alpha', keywords: ['recipe', 'baking', 'kitchen'] },
          { name: 'beta', keywords: ['election', 'parliament'] }
        ]
      },
      S
    )
    t.ok(kw[0]! > kw[1]!)
  }
)
