// Zero-shot top-1 accuracy of /v4/custom_classifier's scorer on
// AG News (4 labels) and 10 HuffPost categories, given label names only and given names plus
// keywords, on the 1-in-5 hash part of each set (no test split is read).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { csvFields, isHeldOut, lines, need } from '../training/data.js'
import { loadWordVectors, type WordVectors } from '../lib/text/word-vectors.js'
import { zeroShot, type ZeroShotLabel, type ZeroShotSettings } from '../lib/text/zero-shot.js'

// (ZS_* variables: experiments with other settings than the manifest's)
// node --import tsx eval/custom_classifier.ts prints the table; eval/newops.ts reads the same figures.

// keywords written for the evaluation from general knowledge of the topics (not from the data)
export const AG: ZeroShotLabel[] = [
  { name: 'World', keywords: ['international', 'government', 'war', 'country', 'minister', 'election'] },
  { name: 'Sports', keywords: ['game', 'team', 'match', 'player', 'season', 'championship'] },
  { name: 'Business', keywords: ['company', 'market', 'stocks', 'economy', 'profit', 'bank'] },
  { name: 'Sci/Tech', keywords: ['technology', 'software', 'internet', 'computer', 'science', 'research'] }
]
export const HUFFPOST: Record<string, ZeroShotLabel> = {
  POLITICS: { name: 'Politics', keywords: ['government', 'election', 'president', 'congress', 'party'] },
  ENTERTAINMENT: { name: 'Entertainment', keywords: ['movie', 'celebrity', 'music', 'actor', 'television'] },
  TRAVEL: { name: 'Travel', keywords: ['trip', 'vacation', 'hotel', 'destination', 'flight'] },
  'STYLE & BEAUTY': { name: 'Style & Beauty', keywords: ['fashion', 'makeup', 'dress', 'hair', 'beauty'] },
  'FOOD & DRINK': { name: 'Food & Drink', keywords: ['recipe', 'cooking', 'restaurant', 'wine', 'dinner'] },
  BUSINESS: { name: 'Business', keywords: ['company', 'market', 'economy', 'ceo', 'industry'] },
  SPORTS: { name: 'Sports', keywords: ['game', 'team', 'player', 'coach', 'season'] },
  CRIME: { name: 'Crime', keywords: ['police', 'murder', 'arrested', 'shooting', 'suspect'] },
  SCIENCE: { name: 'Science', keywords: ['research', 'scientists', 'study', 'space', 'discovery'] },
  RELIGION: { name: 'Religion', keywords: ['church', 'faith', 'god', 'pope', 'religious'] }
}

function accuracy (v: WordVectors, settings: ZeroShotSettings, rows: Array<{ text: string, label: number }>, labels: ZeroShotLabel[]): number {
  let right = 0
  for (const r of rows) {
    const p = zeroShot(v, { text: r.text, labels }, settings)
    if (p.indexOf(Math.max(...p)) === r.label) right++
  }
  return right / rows.length
}

export interface ZeroShotRow { set: string, texts: number, names: number, keywords: number, target: string }

/** top-1 accuracy with label names only and with names + keywords, on both sets */
export async function zeroShotAccuracy (): Promise<ZeroShotRow[]> {
  const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'model-store', 'custom_classifier', '1', 'manifest.json'), 'utf8')) as { vectors: string, settings: ZeroShotSettings }
  const v = await loadWordVectors(join(import.meta.dirname, '..', 'model-store', manifest.vectors))
  const env = process.env
  const settings: ZeroShotSettings = { temperature: Number(env.ZS_T ?? manifest.settings.temperature), nameWeight: Number(env.ZS_NAME ?? manifest.settings.nameWeight), common: (env.ZS_COMMON ?? String(manifest.settings.common)) === 'true' }
  const agClasses = ['World', 'Sports', 'Business', 'Sci/Tech']
  // the 20k train subset (training/data.ts agNews reads a part of the test split, never used here)
  const ag = lines('taxonomy/ag-news/train_subset20k.csv').slice(1).map((l) => {
    const [c, title, desc] = csvFields(l)
    return { text: `${title}. ${(desc ?? '').replace(/\\/g, ' ')}`, label: Number(c) - 1 }
  }).filter((r) => r.label >= 0 && r.label < agClasses.length && isHeldOut(r.text))
  const names = readFileSync(need('taxonomy/huffpost-news-category-bao36k/label_map.tsv'), 'utf8').split('\n').slice(1).filter(Boolean).map((l) => l.split('\t')[1] as string)
  const cats = Object.keys(HUFFPOST)
  const huff = readFileSync(need('taxonomy/huffpost-news-category-bao36k/huffpost.json'), 'utf8').split('\n').filter(Boolean)
    .map((l) => JSON.parse(l) as { raw: string, label: number })
    .map((r) => ({ text: r.raw, label: cats.indexOf(names[r.label] as string) }))
    .filter((r) => r.label >= 0 && isHeldOut(r.text))
  const bare = (ls: ZeroShotLabel[]) => ls.map((l) => ({ name: l.name, keywords: [] }))
  const hp = Object.values(HUFFPOST)
  const acc = (rows: typeof ag, labels: ZeroShotLabel[]) => accuracy(v, settings, rows, labels)
  return [
    { set: `AG News (4 labels), hash 1/5 of the 20k train subset, ${ag.length}`, texts: ag.length, names: acc(ag, bare(AG)), keywords: acc(ag, AG), target: 'target 0.60 (names only)' },
    { set: `HuffPost 10 categories, hash 1/5 of Bao et al. 36k, ${huff.length}`, texts: huff.length, names: acc(huff, bare(hp)), keywords: acc(huff, hp), target: 'target 0.40 (names only)' }
  ]
}

if (import.meta.filename === process.argv[1]) {
  const rows = await zeroShotAccuracy()
  console.log('| set | top-1, names only | top-1, names + keywords | target |\n|---|---|---|---|')
  for (const r of rows) console.log(`| ${r.set} | ${r.names.toFixed(3)} | ${r.keywords.toFixed(3)} | ${r.target} |`)
}
