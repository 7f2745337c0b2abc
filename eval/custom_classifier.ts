// Zero-shot top-1 accuracy of /v4/custom_classifier's scorer on
// AG News (4 labels) and 10 HuffPost categories, given label names only and given names plus
// keywords, on the 1-in-5 hash part of each set (no test split is read).
// The settings were chosen on other data (--tuning): DBpedia-14, BBC News, 10 other HuffPost
// categories, and the parts of AG News and HuffPost outside the 1-in-5 hash part.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { csvFields, isHeldOut, lines, need } from '../training/readers/data.js'
import { loadWordVectors, type WordVectors } from '../lib/text/words/vectors.js'
import { zeroShot, type ZeroShotLabel, type ZeroShotSettings } from '../lib/text/zero-shot.js'
import { evalOpts } from './options.js'

// (--zs-* flags, or the ZS_* variables: experiments with other settings than the manifest's, e.g. --zs-neighbours=0)
// node --import tsx eval/custom_classifier.ts prints the table; eval/other-operations.ts reads the same figures;
// with --tuning it prints the accuracy on the tuning sets instead.

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

type Rows = Array<{ text: string; label: number }>

let elapsed = 0
let scored = 0
function accuracy (v: WordVectors, settings: ZeroShotSettings, rows: Rows, labels: ZeroShotLabel[]): number {
  let right = 0
  for (const r of rows) {
    const t = performance.now()
    const p = zeroShot(v, { text: r.text, labels }, settings)
    elapsed += performance.now() - t
    scored++
    if (p.indexOf(Math.max(...p)) === r.label) right++
  }
  return right / rows.length
}

async function setup (): Promise<{ v: WordVectors; settings: ZeroShotSettings }> {
  const manifest = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', 'model-store', 'custom_classifier', '1', 'manifest.json'), 'utf8')
  ) as { vectors: string; settings: ZeroShotSettings }
  const v = await loadWordVectors(join(import.meta.dirname, '..', 'model-store', manifest.vectors))
  const m = manifest.settings
  const settings: ZeroShotSettings = {
    neighbours: evalOpts.zsNeighbours ?? m.neighbours,
    neighbourPool: evalOpts.zsPool ?? m.neighbourPool,
    wordTemperature: evalOpts.zsT ?? m.wordTemperature,
    sharpness: evalOpts.zsSharpness ?? m.sharpness,
    common: evalOpts.zsCommon ?? (String(m.common) === 'true')
  }
  return { v, settings }
}

/** the AG News 20k train subset (training/readers/data.ts agNews reads a part of the test split, never used here) */
function agNews (): Rows {
  return lines('taxonomy/ag-news/train_subset20k.csv')
    .slice(1)
    .map(l => {
      const [c, title, desc] = csvFields(l)
      return { text: `${title}. ${(desc ?? '').replace(/\\/g, ' ')}`, label: Number(c) - 1 }
    })
    .filter(r => r.label >= 0 && r.label < AG.length)
}

/** HuffPost headlines of the given categories (labelled by their index in `cats`) */
function huffPost (cats: string[]): Rows {
  const names = readFileSync(need('taxonomy/huffpost-news-category-bao36k/label_map.tsv'), 'utf8')
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map(l => l.split('\t')[1] as string)
  return readFileSync(need('taxonomy/huffpost-news-category-bao36k/huffpost.json'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(l => JSON.parse(l) as { raw: string; label: number })
    .map(r => ({ text: r.raw, label: cats.indexOf(names[r.label] as string) }))
    .filter(r => r.label >= 0)
}

const bare = (ls: ZeroShotLabel[]) => ls.map(l => ({ name: l.name, keywords: [] }))

export interface ZeroShotRow {
  set: string
  texts: number
  names: number
  keywords: number
  target: string
}

/** top-1 accuracy with label names only and with names + keywords, on both sets; and ms per text */
export async function zeroShotAccuracy (): Promise<ZeroShotRow[]> {
  const { v, settings } = await setup()
  const ag = agNews().filter(r => isHeldOut(r.text))
  const huff = huffPost(Object.keys(HUFFPOST)).filter(r => isHeldOut(r.text))
  const hp = Object.values(HUFFPOST)
  const acc = (rows: Rows, labels: ZeroShotLabel[]) => accuracy(v, settings, rows, labels)
  elapsed = 0
  scored = 0
  const rows = [
    {
      set: `AG News (4 labels), hash 1/5 of the 20k train subset, ${ag.length}`,
      texts: ag.length,
      names: acc(ag, bare(AG)),
      keywords: acc(ag, AG),
      target: 'target 0.60 (names only)'
    },
    {
      set: `HuffPost 10 categories, hash 1/5 of Bao et al. 36k, ${huff.length}`,
      texts: huff.length,
      names: acc(huff, bare(hp)),
      keywords: acc(huff, hp),
      target: 'target 0.40 (names only)'
    }
  ]
  msPerText = elapsed / scored
  return rows
}
/** mean time of one text's scoring in the last zeroShotAccuracy run (labels cached) */
export let msPerText = NaN

/** A fixed sample of n rows (the same on every run). */
function sample<T> (rows: T[], n: number): T[] {
  let s = 1
  const out = rows.slice()
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff
    const j = s % (i + 1)
    ;[out[i], out[j]] = [out[j] as T, out[i] as T]
  }
  return out.slice(0, n)
}

/**
 * Top-1 accuracy, label names only, on the data the settings were chosen on: DBpedia-14 (camel-case
 * class names split into words), BBC News, 10 HuffPost categories not in the evaluation, and the
 * AG News and HuffPost rows outside the 1-in-5 hash part. None of it is in zeroShotAccuracy's sets.
 */
export async function tuningAccuracy (): Promise<Array<{ set: string; texts: number; names: number }>> {
  const { v, settings } = await setup()
  const dbNames = readFileSync(need('taxonomy/dbpedia14-subset14k/classes.txt'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(n => n.trim().replace(/([a-z])([A-Z])/g, '$1 $2'))
  const db = sample(
    lines('taxonomy/dbpedia14-subset14k/dbpedia_subset14k.csv').map(l => {
      const [c, t] = csvFields(l)
      return { text: (t ?? '').replace(/\t/g, ' '), label: Number(c) }
    }),
    2800
  )
  const bbcNames = ['business', 'entertainment', 'politics', 'sport', 'tech']
  const bbc = readFileSync(need('taxonomy/bbc-news/bbc.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(l => JSON.parse(l) as { label: string; text: string })
    .map(r => ({ text: r.text, label: bbcNames.indexOf(r.label) }))
  const other = [
    'MEDIA',
    'WEDDINGS',
    'DIVORCE',
    'TECH',
    'MONEY',
    'EDUCATION',
    'ENVIRONMENT',
    'COMEDY',
    'PARENTING',
    'WELLNESS'
  ]
  const title = (s: string) => s.toLowerCase().replace(/\b\w/g, c => c.toUpperCase())
  const outside = (rows: Rows) =>
    sample(
      rows.filter(r => !isHeldOut(r.text)),
      2000
    )
  const sets: Array<[string, Rows, string[]]> = [
    ['DBpedia-14 (sample of the 14k train subset)', db, dbNames],
    ['BBC News, 5 labels', bbc, bbcNames.map(title)],
    ['HuffPost, 10 other categories (outside hash 1/5)', outside(huffPost(other)), other.map(title)],
    ['AG News (outside hash 1/5)', outside(agNews()), AG.map(l => l.name)],
    [
      'HuffPost 10 categories (outside hash 1/5)',
      outside(huffPost(Object.keys(HUFFPOST))),
      Object.values(HUFFPOST).map(l => l.name)
    ]
  ]
  return sets.map(([set, rows, names]) => ({
    set,
    texts: rows.length,
    names: accuracy(
      v,
      settings,
      rows,
      names.map(name => ({ name, keywords: [] }))
    )
  }))
}

if (import.meta.filename === process.argv[1]) {
  if (evalOpts.tuning) {
    const rows = await tuningAccuracy()
    console.log('| tuning set | texts | top-1, names only |\n|---|---|---|')
    for (const r of rows) console.log(`| ${r.set} | ${r.texts} | ${r.names.toFixed(3)} |`)
    console.log(`mean ${(rows.reduce((a, r) => a + r.names, 0) / rows.length).toFixed(3)}`)
  } else {
    const rows = await zeroShotAccuracy()
    console.log('| set | top-1, names only | top-1, names + keywords | target |\n|---|---|---|---|')
    for (const r of rows) console.log(`| ${r.set} | ${r.names.toFixed(3)} | ${r.keywords.toFixed(3)} | ${r.target} |`)
    console.log(`${msPerText.toFixed(3)} ms per text (labels cached)`)
  }
}
