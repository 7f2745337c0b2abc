// Prints, for each cross-domain loader and split: rows, label counts, repeated texts (within the
// split, and shared with the other split) and one example. Run: node --import tsx training/data-domains-check.ts
import { norm } from './data.js'
import * as D from './data-domains.js'

type Row = { text: string, label: string, domain?: string }
const loaders: Array<[string, (p: D.Split) => Row[]]> = [
  ['sst2', D.sst2], ['sst5', D.sst5], ['sst5 grade', (p) => D.sst5(p).map((r) => ({ ...r, label: String(r.grade) }))],
  ['customerReviews', D.customerReviews], ['amazonAlexa', D.amazonAlexa], ['amazonAlexa stars', (p) => D.amazonAlexa(p).map((r) => ({ ...r, label: String(r.stars) }))],
  ['multiDomainReviews', D.multiDomainReviews], ['multiDomainReviews domain', (p) => D.multiDomainReviews(p).map((r) => ({ ...r, label: r.domain }))],
  ['dairEmotion', D.dairEmotion], ['wassaEmotion', D.wassaEmotion], ['tweetevalEmotion', D.tweetevalEmotion], ['isear', D.isear],
  ['isarcasm', D.isarcasm], ['sarcasmV2', D.sarcasmV2], ['sarcasmV2 domain', (p) => D.sarcasmV2(p).map((r) => ({ ...r, label: `${r.domain}:${r.label}` }))],
  ['enronSpam', D.enronSpam], ['enronSpam domain', (p) => D.enronSpam(p).map((r) => ({ ...r, label: `${r.domain}:${r.label}` }))], ['snips', D.snips],
  ['huffpost', D.huffpost], ['agNews20k', D.agNews20k], ['dbpedia14', D.dbpedia14]
]

const short = (s: string) => { const t = s.replace(/\s+/g, ' '); return t.length > 80 ? `${t.slice(0, 77)}...` : t }
const repeats = (rows: Row[]) => rows.length - new Set(rows.map((r) => norm(r.text))).size
for (const [name, load] of loaders) {
  const train = load('train'); const val = load('val')
  const trainKeys = new Set(train.map((r) => norm(r.text)))
  for (const [part, rows] of [['train', train], ['val', val]] as const) {
    const counts = D.labelCounts(rows).map(([l, n]) => `${l} ${n}`).join(', ')
    const shared = part === 'val' ? `, in train too ${rows.filter((r) => trainKeys.has(norm(r.text))).length}` : ''
    const conflict = new Map<string, Set<string>>()
    for (const r of rows) { const k = norm(r.text); conflict.set(k, (conflict.get(k) ?? new Set()).add(r.label)) }
    const mixed = [...conflict.values()].filter((s) => s.size > 1).length
    console.log(`${name} ${part}: ${rows.length} rows (repeats ${repeats(rows)}, repeats with different labels ${mixed}${shared}) | ${counts}`)
    const ex = rows[Math.floor(rows.length / 2)]
    if (ex !== undefined) console.log(`  e.g. [${ex.label}] ${short(ex.text)}`)
  }
}
const iab = D.iabTier1('3.1')
console.log(`iabTier1 3.1: ${iab.length} tier-1, ${iab.reduce((n, t) => n + t.tier2.length, 0)} tier-2 | ${iab.slice(0, 3).map((t) => `${t.id} ${t.name} (${t.tier2.length}: ${t.tier2.slice(0, 2).map((x) => x.name).join(', ')}...)`).join('; ')}`)
const iab22 = D.iabTier1('2.2')
console.log(`iabTier1 2.2: ${iab22.length} tier-1, ${iab22.reduce((n, t) => n + t.tier2.length, 0)} tier-2 | ${iab22.map((t) => t.name).join(', ')}`)
