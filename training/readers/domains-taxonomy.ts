// Readers for the topic and news-category training sets in ../shared/datasets (taxonomy/): the IAB
// Content Taxonomy, HuffPost headlines, AG News and DBpedia-14. Sets without a validation split use
// data.ts's fixed 1-in-5 hash split (hashSplit); the HuffPost 2018-2022 set the datasets README holds out
// is never read here.
import { lines, csvFields, type Labelled } from './data.js'
import { readText, records, hashSplit, squash, agText, type Split } from './domains-parse.js'

export interface IabTier1 {
  id: string
  name: string
  tier2: Array<{ id: string; name: string }>
}

/** IAB Content Taxonomy tier-1 nodes (id, name) with their tier-2 children. */
export function iabTier1 (version: '3.1' | '2.2' = '3.1'): IabTier1[] {
  const rows = records(readText(`taxonomy/iab-content-taxonomy/Content_Taxonomy_${version}.tsv`), '\t').slice(2)
  const tier1 = new Map<string, IabTier1>()
  for (const f of rows) {
    if ((f[1] ?? '').trim() === '' && (f[0] ?? '').trim() !== '') {
      tier1.set(f[0]!.trim(), { id: f[0]!.trim(), name: (f[2] ?? '').trim(), tier2: [] })
    }
  }
  for (const f of rows) {
    tier1.get((f[1] ?? '').trim())?.tier2.push({ id: (f[0] ?? '').trim(), name: (f[2] ?? '').trim() })
  }
  return [...tier1.values()]
}

/**
 * HuffPost headlines (Bao et al. balanced 41 x 900 subset of the 2012-2018 v2 set; lower-cased, tokenised; NO
 * short description in this copy); hash split.
 */
export function huffpost (part: Split): Labelled[] {
  const names = new Map(
    lines('taxonomy/huffpost-news-category-bao36k/label_map.tsv')
      .slice(1)
      .map(l => l.split('\t') as [string, string])
  )
  const rows = lines('taxonomy/huffpost-news-category-bao36k/huffpost.json').map(l => {
    const d = JSON.parse(l) as { raw: string; label: number }
    return { text: d.raw.trim(), label: names.get(String(d.label)) ?? String(d.label) }
  })
  return hashSplit(rows, part)
}

/**
 * AG News 20k balanced subset of the official train: World Sports Business Sci/Tech, title + description
 * (escapes cleaned); hash split.
 */
export function agNews20k (part: Split): Labelled[] {
  return agNews20kParts(part).map(({ label, text }) => ({ label, text }))
}

/** agNews20k with each item's description apart (the same rows and split) */
export function agNews20kParts (part: Split): Array<Labelled & { description: string }> {
  const names = ['World', 'Sports', 'Business', 'Sci/Tech']
  const rows = lines('taxonomy/ag-news/train_subset20k.csv')
    .slice(1)
    .map(l => {
      const [c, title = '', desc = ''] = csvFields(l)
      const t = agText(title)
      const description = agText(desc)
      return {
        label: names[Number(c) - 1] ?? String(c),
        text: /[.!?]$/.test(t) ? `${t} ${description}` : `${t}. ${description}`,
        description
      }
    })
  return hashSplit(rows, part)
}

export const DBPEDIA_CLASSES = [
  'Company',
  'EducationalInstitution',
  'Artist',
  'Athlete',
  'OfficeHolder',
  'MeanOfTransportation',
  'Building',
  'NaturalPlace',
  'Village',
  'Animal',
  'Plant',
  'Album',
  'Film',
  'WrittenWork'
] as const

/** DBpedia-14 abstracts (tokenised, non-ASCII letters already stripped by the source); hash split. */
export function dbpedia14 (part: Split): Labelled[] {
  const rows = lines('taxonomy/dbpedia14-subset14k/dbpedia_subset14k.csv').map(l => {
    const i = l.indexOf(',')
    return {
      label: DBPEDIA_CLASSES[Number(l.slice(0, i))] ?? l.slice(0, i),
      text: squash(l.slice(i + 1).replace(/\t/g, ' '))
    }
  })
  return hashSplit(rows, part)
}
