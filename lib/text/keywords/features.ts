// The keyword ranker's candidate features (FEATURES, featurise), shared by training, evaluation and
// serving so that the scorer sees the same numbers everywhere. Candidates and their per-document
// statistics come from lib/text/keywords/candidates.ts; the statistics of the training documents
// (KeywordTables) ship with the model.
import type { Analysed, Candidate } from './candidates.js'

/** Statistics of the training documents, shipped with the model (keywords.json). */
export interface KeywordTables {
  /** training documents the counts come from */
  docs: number
  /** documents containing each word stem (stems in fewer than 2 documents are left out) */
  wordDf: Record<string, number>
  /** gold keyphrase stems: [times a gold keyphrase, documents where it is a candidate] */
  phrase: Record<string, [number, number]>
  /** word stems: times inside a gold keyphrase */
  wordGold: Record<string, number>
  /** word stems: times the last word (head) of a gold keyphrase */
  headGold: Record<string, number>
}

export const FEATURES = [
  'first position',
  'log first index',
  'in first sentence',
  'log frequency',
  'frequency per 100 tokens',
  'one word',
  'two words',
  'three words',
  'four+ words',
  'mean idf',
  'min idf',
  'max idf',
  'tf-idf',
  'log keyphraseness',
  'keyphraseness ratio',
  'known phrase',
  'mean word keyphraseness',
  'min word keyphraseness',
  'head keyphraseness',
  'log head frequency',
  'mean word frequency',
  'capitalised',
  'acronym',
  'proper noun',
  'spread',
  'maximal chunk',
  'log containing candidates',
  'rank sum',
  'rank mean',
  'log tokens',
  'starts with adjective',
  'first-sentence frequency',
  'x of y',
  'gerund',
  'mean word keyphrase rate',
  'min word keyphrase rate',
  'head keyphrase rate',
  'best part keyphraseness',
  'in first line',
  'defines acronym',
  'after determiner share',
  'before of share',
  'tf-idf place in document',
  'rank sum place in document',
  'keyphraseness place in document'
] as const

const PER = 1000

// tables come from JSON: a stem such as "constructor" must not find Object.prototype's
function own<T> (rec: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(rec, key) ? rec[key] : undefined
}

/** A word stem's figures, the same for every candidate of a document that holds it. */
interface WordStats {
  idf: number
  keyness: number
  rate: number
  rank: number
  count: number
}
interface DocStats {
  containing: Map<string, number>
  scale: number
  word: (stem: string) => WordStats
}

/** One row of FEATURES per candidate. */
export function featurise (a: Analysed, tables: KeywordTables): Float32Array[] {
  let maxRank = 0
  for (const v of a.wordRank.values()) maxRank = Math.max(maxRank, v)
  const scale = PER / Math.max(1, tables.docs)
  const words = new Map<string, WordStats>()
  const word = (stem: string): WordStats => {
    let w = words.get(stem)
    if (w !== undefined) return w
    const df = own(tables.wordDf, stem) ?? 0
    const gold = own(tables.wordGold, stem)
    w = {
      idf: Math.log((tables.docs + 1) / (df + 1)),
      keyness: Math.log1p((gold ?? 0) * scale),
      rate: (gold ?? 0) / (df + 2),
      rank: (a.wordRank.get(stem) ?? 0) / (maxRank || 1),
      count: a.stemCount.get(stem) ?? 0
    }
    words.set(stem, w)
    return w
  }
  const doc: DocStats = { containing: containingCounts(a.candidates), scale, word }
  return placeInDocument(a.candidates.map(c => candidateRow(c, a, tables, doc)))
}

/** How many candidates contain each key: specific phrases inside general ones tend to be keys. */
function containingCounts (candidates: Candidate[]): Map<string, number> {
  const out = new Map<string, number>()
  for (const c of candidates) {
    if (c.words < 2) continue
    const parts = c.key.split(' ')
    for (let i = 0; i < parts.length; i++) {
      for (let j = i + 1; j <= parts.length; j++) {
        if (j - i === parts.length) continue
        const sub = parts.slice(i, j).join(' ')
        out.set(sub, (out.get(sub) ?? 0) + 1)
      }
    }
  }
  return out
}

/** The row of one candidate, with the three place-in-document features left 0 (placeInDocument fills them). */
function candidateRow (c: Candidate, a: Analysed, tables: KeywordTables, doc: DocStats): Float32Array {
  const kp = (n: number | undefined) => Math.log1p((n ?? 0) * doc.scale)
  const T = Math.max(1, a.tokens)
  const stems = c.key.split(' ')
  const ws = stems.map(doc.word)
  const idfs = ws.map(w => w.idf)
  const meanIdf = idfs.reduce((x, y) => x + y, 0) / idfs.length
  const tf = c.starts.length
  const first = c.starts[0] as number
  const last = c.starts[c.starts.length - 1] as number
  const ph = own(tables.phrase, c.key)
  const wk = ws.map(w => w.keyness)
  const head = stems[stems.length - 1] as string
  const rankSum = ws.reduce((x, w) => x + w.rank, 0)
  const wordFreq = ws.reduce((x, w) => x + w.count, 0) / stems.length
  let inFirst = 0
  for (const s of c.starts) if (s < a.firstSentenceEnd) inFirst++
  // of the documents where a word occurs, how often it is part of a keyphrase
  const rate = (n: number | undefined, s: string) => (n ?? 0) / ((own(tables.wordDf, s) ?? 0) + 2)
  const rates = ws.map(w => w.rate)
  let part = 0
  for (let i = 0; i < stems.length; i++) {
    for (let j = i + 1; j <= stems.length; j++) {
      if (j - i < stems.length) part = Math.max(part, own(tables.phrase, stems.slice(i, j).join(' '))?.[0] ?? 0)
    }
  }
  return Float32Array.from([
    first / T,
    Math.log1p(first),
    first < a.firstSentenceEnd ? 1 : 0,
    Math.log1p(tf),
    (tf * 100) / T,
    c.words === 1 ? 1 : 0,
    c.words === 2 ? 1 : 0,
    c.words === 3 ? 1 : 0,
    c.words >= 4 ? 1 : 0,
    meanIdf,
    Math.min(...idfs),
    Math.max(...idfs),
    Math.log1p(tf) * meanIdf,
    kp(ph?.[0]),
    ph === undefined ? 0 : ph[0] / Math.max(1, ph[1]),
    ph === undefined ? 0 : 1,
    wk.reduce((x, y) => x + y, 0) / wk.length,
    Math.min(...wk),
    kp(own(tables.headGold, head)),
    Math.log1p(a.stemCount.get(head) ?? 0),
    Math.log1p(wordFreq),
    c.capitalised,
    c.acronym ? 1 : 0,
    c.proper ? 1 : 0,
    (last - first) / T,
    c.maximal ? 1 : 0,
    Math.log1p(doc.containing.get(c.key) ?? 0),
    rankSum,
    rankSum / stems.length,
    Math.log1p(T),
    c.startsAdj ? 1 : 0,
    Math.log1p(inFirst),
    c.of ? 1 : 0,
    c.gerund ? 1 : 0,
    rates.reduce((x, y) => x + y, 0) / rates.length,
    Math.min(...rates),
    rate(own(tables.headGold, head), head),
    kp(part),
    first < a.firstLineEnd ? 1 : 0,
    c.definesAcronym ? 1 : 0,
    c.afterDeterminer / tf,
    c.beforeOf / tf,
    0,
    0,
    0
  ])
}

/** Where each candidate stands among this document's own candidates, whatever the document's length. */
function placeInDocument (rows: Float32Array[]): Float32Array[] {
  const RELATIVE = ['tf-idf', 'rank sum', 'log keyphraseness'].map(f =>
    FEATURES.indexOf(f as (typeof FEATURES)[number])
  )
  RELATIVE.forEach((from, r) => {
    const to = FEATURES.length - RELATIVE.length + r
    const order = rows.map((row, i) => [row[from] as number, i] as const).sort((x, y) => y[0] - x[0])
    order.forEach(([, i], place) => {
      ;(rows[i] as Float32Array)[to] = place / Math.max(1, rows.length - 1)
    })
  })
  return rows
}

/**
 * Candidates best first by score; ties by key, so a text ranks the same alone and in a batch.
 * (Dropping phrases that only occur inside a chosen longer one, "vector machines" inside "support
 * vector machines", reads better but cost 0.003-0.007 F1@10 on Inspec, whose gold lists keep such
 * parts: not done.)
 */
export function rankCandidates (
  a: Analysed,
  scores: ArrayLike<number>
): Array<{ candidate: Candidate; score: number }> {
  return a.candidates
    .map((candidate, i) => ({ candidate, score: scores[i] as number }))
    .sort((x, y) => y.score - x.score || (x.candidate.key < y.candidate.key ? -1 : 1))
}
