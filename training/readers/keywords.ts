// Keyphrase documents, the Inspec validation split, the statistics tables the ranker reads, the
// F1@10 score and two baselines of our own (TF-IDF and PositionRank), shared by training/recipes/keywords.ts
// and eval/keywords.ts so that both score the same way.
import { analyse, type Analysed } from '../../lib/text/keywords/candidates.js'
import type { KeywordTables } from '../../lib/text/keywords/features.js'
import { phraseKey } from '../../lib/text/keywords/tokens.js'
import { isHeldOut, lines } from './data.js'

export interface KeyDoc {
  id: string
  set: string
  text: string
  /** stem keys of the gold keyphrases (all of them, also those absent from the text) */
  gold: Set<string>
  a: Analysed
}

interface Row {
  id: string
  text: string
  keyphrases: string[]
}

export const SOURCES = [
  {
    name: 'Inspec (Hulth 2003), LIAAD repackaging',
    path: 'keyphrase/inspec',
    licence: 'research use (abstracts (c) IET/Inspec; no licence in LIAAD/KeywordExtractor-Datasets)'
  },
  {
    name: 'SemEval-2017 Task 10 ScienceIE',
    path: 'keyphrase/semeval2017-scienceie',
    licence: 'research use (ScienceDirect paragraphs, released CC BY-NC-SA per the task site)'
  },
  {
    name: 'SemEval-2010 Task 5',
    path: 'keyphrase/semeval2010',
    licence: 'research use (ACM papers; no licence in LIAAD/KeywordExtractor-Datasets)'
  }
]

export const VALIDATION_SPLIT =
  'validation: 1 in 5 Inspec abstracts by FNV-1a hash of the normalised text (training/readers/data.ts isHeldOut); ' +
  'the rest train'

function read (file: string, set: string): Array<Row & { set: string }> {
  return lines(file).map(l => ({ ...(JSON.parse(l) as Row), set }))
}

/** Inspec splits by a hash of the text (LIAAD merged the original splits); the SemEval sets only train. */
export function keyphraseDocs (log: (s: string) => void = () => {}): { train: KeyDoc[]; val: KeyDoc[] } {
  const t0 = performance.now()
  const rows = [
    ...read('keyphrase/inspec/inspec.jsonl', 'inspec'),
    ...read('keyphrase/semeval2017-scienceie/semeval2017-scienceie.jsonl', 'semeval2017'),
    ...read('keyphrase/semeval2010/semeval2010.jsonl', 'semeval2010')
  ]
  const train: KeyDoc[] = []
  const val: KeyDoc[] = []
  for (const r of rows) {
    const doc: KeyDoc = {
      id: r.id,
      set: r.set,
      text: r.text,
      gold: new Set(r.keyphrases.map(phraseKey).filter(k => k.length > 0)),
      a: analyse(r.text)
    }
    if (r.set === 'inspec' && isHeldOut(r.text)) val.push(doc)
    else train.push(doc)
  }
  log(
    `keyphrase documents: ${train.length} training (${train.filter(d => d.set === 'inspec').length} Inspec), ` +
      `${val.length} Inspec validation; analysed in ${((performance.now() - t0) / 1000).toFixed(1)} s`
  )
  return { train, val }
}

/** Document frequencies and keyphraseness from some training documents, pruned to what helps. */
export function buildTables (docs: KeyDoc[]): KeywordTables {
  const wordDf = new Map<string, number>()
  const phraseDf = new Map<string, number>()
  const goldCount = new Map<string, number>()
  const wordGold = new Map<string, number>()
  const headGold = new Map<string, number>()
  const inc = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1)
  for (const d of docs) {
    const stems = new Set<string>()
    for (const c of d.a.candidates) {
      for (const s of c.key.split(' ')) stems.add(s)
      inc(phraseDf, c.key)
    }
    for (const s of stems) inc(wordDf, s)
    for (const g of d.gold) {
      inc(goldCount, g)
      const parts = g.split(' ')
      for (const s of new Set(parts)) inc(wordGold, s)
      inc(headGold, parts[parts.length - 1] as string)
    }
  }
  const keep = (m: Map<string, number>, min: number) =>
    Object.fromEntries([...m].filter(([, n]) => n >= min).sort((a, b) => (a[0] < b[0] ? -1 : 1)))
  const phrase: Record<string, [number, number]> = {}
  for (const [k, n] of [...goldCount].sort((a, b) => (a[0] < b[0] ? -1 : 1))) phrase[k] = [n, phraseDf.get(k) ?? 0]
  return {
    docs: docs.length,
    wordDf: keep(wordDf, 2),
    phrase,
    wordGold: keep(wordGold, 1),
    headGold: keep(headGold, 1)
  }
}

export interface Scores {
  p: number
  r: number
  f1: number
}

/** F1@k of one document: precision over the keys returned (at most k), recall over all gold keys. */
export function scoreDoc (ranked: string[], gold: Set<string>, k = 10): Scores {
  const top = [...new Set(ranked)].slice(0, k)
  if (top.length === 0 || gold.size === 0) return { p: 0, r: 0, f1: 0 }
  const hit = top.filter(x => gold.has(x)).length
  const p = hit / top.length
  const r = hit / gold.size
  return { p, r, f1: p + r === 0 ? 0 : (2 * p * r) / (p + r) }
}

/** Macro averages over documents. */
export function average (rows: Scores[]): Scores {
  const n = Math.max(1, rows.length)
  return {
    p: rows.reduce((s, x) => s + x.p, 0) / n,
    r: rows.reduce((s, x) => s + x.r, 0) / n,
    f1: rows.reduce((s, x) => s + x.f1, 0) / n
  }
}

const byScore = (scored: Array<[string, number]>) =>
  scored.sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([k]) => k)

/** TF-IDF baseline: candidates of up to three words by frequency times inverse phrase document frequency. */
export function tfidfRanker (train: KeyDoc[]): (a: Analysed) => string[] {
  const df = new Map<string, number>()
  for (const d of train) for (const c of d.a.candidates) df.set(c.key, (df.get(c.key) ?? 0) + 1)
  const n = train.length
  return a =>
    byScore(
      a.candidates
        .filter(c => c.words <= 3)
        .map(c => [c.key, c.starts.length * Math.log((n + 1) / ((df.get(c.key) ?? 0) + 1))])
    )
}

/**
 * PositionRank baseline (Florescu and Caragea 2017, as we read it): maximal noun phrases by the sum of their words'
 * position-biased PageRank.
 */
export function positionRanker (a: Analysed): string[] {
  return byScore(
    a.candidates
      .filter(c => c.maximal)
      .map(c => [c.key, c.key.split(' ').reduce((s, w) => s + (a.wordRank.get(w) ?? 0), 0)])
  )
}

/** The best reachable F1@10 with these candidates (every present gold key ranked first). */
export function oracle (d: KeyDoc): string[] {
  return d.a.candidates.map(c => c.key).filter(k => d.gold.has(k))
}
