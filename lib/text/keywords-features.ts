// Keyphrase candidates and their features, shared by training, evaluation and serving so that the
// scorer sees the same numbers everywhere. Candidates are noun phrases found with wink-nlp's
// part-of-speech tags (runs of adjectives, nouns and participles, every sub-phrase of up to
// MAX_WORDS words that ends in a noun, and "X of Y"); phrases are compared by their Porter2 stems,
// the way keyphrase benchmarks score them.
import winkNLP from 'wink-nlp'
import winkModel from 'wink-eng-lite-web-model'

/** Texts are read up to this many characters: keyphrases of long documents sit in their first pages. */
export const MAX_CHARS = 20_000
export const MAX_WORDS = 5

type Nlp = ReturnType<typeof winkNLP>
let nlp: Nlp | undefined
/** The wink-nlp English pipeline, loaded once per process (about 100 ms). */
export function getNlp (): Nlp {
  nlp ??= winkNLP(winkModel)
  return nlp
}

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

interface Token {
  /** surface text */
  text: string
  pos: string
  /** one stem per word part ("state-of-the-art" has four) */
  stems: string[]
  sentence: number
  sentenceStart: boolean
  stop: boolean
  /** line of the text (a first line is often a title) */
  line: number
}

export interface Candidate {
  key: string
  /** the surface form shown to callers */
  surface: string
  words: number
  /** token indexes where it starts */
  starts: number[]
  maximal: boolean
  capitalised: number
  acronym: boolean
  proper: boolean
  startsAdj: boolean
  /** "X of Y" */
  of: boolean
  /** some occurrence is followed by a parenthesised acronym: "support vector machines (SVM)" */
  definesAcronym: boolean
  /** occurrences right after a, an or the */
  afterDeterminer: number
  /** occurrences followed by "of" */
  beforeOf: number
  gerund: boolean
}

export interface Analysed {
  tokens: number
  sentences: number
  firstSentenceEnd: number
  /** tokens before the first line break (all of them when there is none) */
  firstLineEnd: number
  candidates: Candidate[]
  /** word stem counts over the document's content words */
  stemCount: Map<string, number>
  /** PositionRank-style word scores (graph of co-occurring content words, biased to early words) */
  wordRank: Map<string, number>
}

const CONTENT = new Set(['NOUN', 'PROPN', 'ADJ'])
const HEAD = new Set(['NOUN', 'PROPN'])
const WORDLIKE = /[\p{L}]/u
// the parts of a dotted name: two or more letters each
const DOTTED = /^\p{L}{2,}$/u

/** Tokens with hyphenated compounds re-joined (wink splits "separate-account" in three). */
function tokenise (text: string): Token[] {
  const n = getNlp()
  const its = n.its
  const doc = n.readDoc(text)
  const words = doc.tokens().out() as string[]
  const pos = doc.tokens().out(its.pos) as string[]
  const spaces = doc.tokens().out(its.precedingSpaces) as string[]
  const stems = doc.tokens().out(its.stem as never) as string[]
  const stopFlags = doc.tokens().out(its.stopWordFlag) as unknown as boolean[]
  const sentOf = new Int32Array(words.length)
  const spans = doc.sentences().out(its.span) as unknown as Array<[number, number]>
  spans.forEach(([a, b], s) => { for (let i = a; i <= b && i < words.length; i++) sentOf[i] = s })
  const out: Token[] = []
  let line = 0
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string
    const p = pos[i] as string
    if ((spaces[i] as string).includes('\n')) line++
    if (p === 'SPACE') { if (w.includes('\n')) line++; continue }
    const prev = out[out.length - 1]
    const glued = w === '-' && prev !== undefined && spaces[i] === '' && spaces[i + 1] === '' &&
      i + 1 < words.length && WORDLIKE.test(prev.text) && WORDLIKE.test(words[i + 1] as string) && sentOf[i + 1] === prev.sentence
    if (glued) {
      const next = words[i + 1] as string
      const np = pos[i + 1] as string
      prev.text += '-' + next
      prev.stems.push((stems[i + 1] as string).toLowerCase())
      // "Web-based", "model-driven": a compound ending in a participle describes the next noun
      prev.pos = np === 'VERB' ? 'ADJ' : np === 'ADJ' || HEAD.has(np) ? np : prev.pos
      prev.stop = false
      i++
      continue
    }
    // a name with an inner dot ("Bol.com"), which wink-nlp cuts in three, even across a sentence break it guesses
    const dotted = w === '.' && prev !== undefined && spaces[i] === '' && spaces[i + 1] === '' && i + 1 < words.length &&
      DOTTED.test(prev.text) && DOTTED.test(words[i + 1] as string)
    if (dotted) {
      prev.text += '.' + (words[i + 1] as string)
      prev.stems.push((stems[i + 1] as string).toLowerCase())
      prev.pos = 'PROPN'
      prev.stop = false
      i++
      continue
    }
    const sentence = sentOf[i] as number
    out.push({
      text: w,
      pos: p === 'VERB' && /^[a-z]/.test(w) ? /ed$/.test(w) ? 'VBN' : /ing$/.test(w) ? 'VBG' : p : p,
      stems: [(stems[i] as string).toLowerCase()],
      sentence,
      sentenceStart: prev === undefined || prev.sentence !== sentence,
      stop: stopFlags[i] === true,
      line
    })
  }
  return out
}

function usable (t: Token): boolean {
  return CONTENT.has(t.pos) && !t.stop && t.text.length > 1 && WORDLIKE.test(t.text)
}

/** The stem key of any phrase (gold keyphrases go through here too): stems of its words, spaced. */
export function phraseKey (phrase: string): string {
  return tokenise(phrase).filter((t) => WORDLIKE.test(t.text) || /\d/.test(t.text)).flatMap((t) => t.stems).join(' ')
}

/** Longer runs without spaces (encoded data, hashes, long addresses) are no phrases, and slow the tagger. */
const LONG_RUN = /\S{64,}/g

export function analyse (raw: string): Analysed {
  const text = (raw.length > MAX_CHARS ? raw.slice(0, MAX_CHARS) : raw).replace(LONG_RUN, ' ')
  const toks = tokenise(text)
  const lowerSeen = new Set(toks.filter((t) => !/\p{Lu}/u.test(t.text)).map((t) => t.text))
  // chunks: runs of usable tokens, where a participle may describe the next noun ("supervised
  // learning", "matching problem") and a gerund may close a noun compound ("constraint handling")
  const chunks: Array<[number, number]> = []
  let start = -1
  const head = (i: number) => {
    const t = toks[i] as Token
    return HEAD.has(t.pos) || (t.pos === 'VBG' && i > start && start >= 0 && HEAD.has((toks[i - 1] as Token).pos))
  }
  const heads: boolean[] = []
  for (let i = 0; i <= toks.length; i++) {
    const t = toks[i]
    const modifier = t !== undefined && (t.pos === 'VBN' || t.pos === 'VBG') && !t.stop && toks[i + 1] !== undefined && usable(toks[i + 1] as Token)
    const ok = t !== undefined && (usable(t) || modifier || (t.pos === 'VBG' && !t.stop && start >= 0 && HEAD.has((toks[i - 1] as Token).pos)))
    if (ok && start < 0) start = i
    if (ok) heads[i] = head(i)
    if (!ok && start >= 0) { chunks.push([start, i]); start = -1 }
  }
  const byKey = new Map<string, Candidate>()
  const surfaceCount = new Map<string, Map<string, number>>()
  const add = (a: number, b: number, maximal: boolean, of = false) => {
    const span = toks.slice(a, b)
    const key = span.flatMap((t) => t.stems).join(' ')
    let c = byKey.get(key)
    if (c === undefined) {
      c = {
        key,
        surface: '',
        words: span.reduce((s, t) => s + t.stems.length, 0),
        starts: [],
        maximal: false,
        capitalised: span.filter((t) => !t.sentenceStart && /^\p{Lu}/u.test(t.text)).length / span.length,
        acronym: span.some((t) => t.text.length > 1 && /^[\p{Lu}\d-]+$/u.test(t.text)),
        proper: span.some((t) => t.pos === 'PROPN'),
        startsAdj: span[0]?.pos === 'ADJ' || span[0]?.pos === 'VBN',
        of,
        gerund: span.some((t) => t.pos === 'VBG'),
        definesAcronym: false,
        afterDeterminer: 0,
        beforeOf: 0
      }
      byKey.set(key, c)
    }
    c.starts.push(a)
    c.maximal ||= maximal
    const before = toks[a - 1]?.text.toLowerCase()
    if (before === 'a' || before === 'an' || before === 'the') c.afterDeterminer++
    if (toks[b]?.text.toLowerCase() === 'of') c.beforeOf++
    if (toks[b]?.text === '(' && /^[\p{Lu}][\p{Lu}\d-]*s?$/u.test(toks[b + 1]?.text ?? '') && toks[b + 2]?.text === ')') c.definesAcronym = true
    // a sentence-initial capital is not part of the phrase, unless the word is a name
    const plain = (t: Token) => t.pos !== 'PROPN' || lowerSeen.has(t.text.toLowerCase())
    const surface = span.map((t) => t.sentenceStart && /^\p{Lu}\p{Ll}*$/u.test(t.text) && plain(t) ? t.text.toLowerCase() : t.text).join(' ')
    const forms = surfaceCount.get(key) ?? new Map<string, number>()
    forms.set(surface, (forms.get(surface) ?? 0) + 1)
    surfaceCount.set(key, forms)
  }
  for (const [a, b] of chunks) {
    for (let i = a; i < b; i++) {
      for (let j = i + 1; j <= Math.min(b, i + MAX_WORDS); j++) {
        if (heads[j - 1] !== true) continue
        add(i, j, i === a && j === b)
      }
    }
  }
  // "philosophy of mind", "quality of service": a noun, "of", and the head of the next chunk
  for (let k = 1; k < chunks.length; k++) {
    const [a, b] = chunks[k - 1] as [number, number]
    const [c, d] = chunks[k] as [number, number]
    if (c !== b + 1 || (toks[b] as Token).text.toLowerCase() !== 'of' || heads[b - 1] !== true) continue
    for (let i = Math.max(a, b - 2); i < b; i++) {
      for (let j = c + 1; j <= Math.min(d, c + 2); j++) {
        if (heads[j - 1] === true && j - i <= MAX_WORDS) add(i, j, false, true)
      }
    }
  }
  for (const c of byKey.values()) {
    const forms = [...(surfaceCount.get(c.key) as Map<string, number>)]
    c.surface = forms.sort((x, y) => y[1] - x[1])[0]![0]
  }

  const stemCount = new Map<string, number>()
  for (const t of toks) if (usable(t)) for (const s of t.stems) stemCount.set(s, (stemCount.get(s) ?? 0) + 1)
  const firstSentenceEnd = toks.findIndex((t) => t.sentence > 0)
  const firstLineEnd = toks.findIndex((t) => t.line > 0)
  return {
    tokens: toks.length,
    sentences: (toks[toks.length - 1]?.sentence ?? 0) + 1,
    firstSentenceEnd: firstSentenceEnd < 0 ? toks.length : firstSentenceEnd,
    firstLineEnd: firstLineEnd < 0 ? toks.length : firstLineEnd,
    candidates: [...byKey.values()],
    stemCount,
    wordRank: positionRank(toks)
  }
}

/** Personalised PageRank over content words co-occurring within a window, biased to early words. */
function positionRank (toks: Token[], window = 6, iterations = 20, damping = 0.85): Map<string, number> {
  const seq: string[] = []
  for (const t of toks) if (usable(t)) seq.push(...t.stems)
  const index = new Map<string, number>()
  for (const s of seq) if (!index.has(s)) index.set(s, index.size)
  const n = index.size
  const rank = new Map<string, number>()
  if (n === 0) return rank
  const bias = new Float64Array(n)
  const ids = seq.map((s) => index.get(s) as number)
  ids.forEach((id, p) => { bias[id]! += 1 / (p + 1) })
  const bsum = bias.reduce((a, b) => a + b, 0)
  for (let i = 0; i < n; i++) bias[i]! /= bsum
  const edges = new Map<number, Map<number, number>>()
  const link = (a: number, b: number) => {
    const m = edges.get(a) ?? new Map<number, number>()
    m.set(b, (m.get(b) ?? 0) + 1)
    edges.set(a, m)
  }
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < Math.min(ids.length, i + window); j++) {
      if (ids[i] === ids[j]) continue
      link(ids[i] as number, ids[j] as number)
      link(ids[j] as number, ids[i] as number)
    }
  }
  const outSum = new Float64Array(n)
  for (const [a, m] of edges) for (const w of m.values()) outSum[a]! += w
  let r = Float64Array.from(bias)
  for (let it = 0; it < iterations; it++) {
    const next = new Float64Array(n)
    for (let i = 0; i < n; i++) next[i] = (1 - damping) * (bias[i] as number)
    for (const [a, m] of edges) {
      const share = damping * (r[a] as number) / (outSum[a] as number)
      for (const [b, w] of m) next[b]! += share * w
    }
    r = next
  }
  for (const [s, i] of index) rank.set(s, r[i] as number)
  return rank
}

export const FEATURES = [
  'first position', 'log first index', 'in first sentence', 'log frequency', 'frequency per 100 tokens',
  'one word', 'two words', 'three words', 'four+ words', 'mean idf', 'min idf', 'max idf', 'tf-idf',
  'log keyphraseness', 'keyphraseness ratio', 'known phrase', 'mean word keyphraseness', 'min word keyphraseness',
  'head keyphraseness', 'log head frequency', 'mean word frequency', 'capitalised', 'acronym', 'proper noun',
  'spread', 'maximal chunk', 'log containing candidates', 'rank sum', 'rank mean', 'log tokens', 'starts with adjective',
  'first-sentence frequency', 'x of y', 'gerund', 'mean word keyphrase rate', 'min word keyphrase rate',
  'head keyphrase rate', 'best part keyphraseness', 'in first line', 'defines acronym', 'after determiner share',
  'before of share', 'tf-idf place in document', 'rank sum place in document', 'keyphraseness place in document'
] as const

const PER = 1000

// tables come from JSON: a stem such as "constructor" must not find Object.prototype's
function own<T> (rec: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(rec, key) ? rec[key] : undefined
}

/** One row of FEATURES per candidate. */
export function featurise (a: Analysed, tables: KeywordTables): Float32Array[] {
  const scale = PER / Math.max(1, tables.docs)
  const idf = (s: string) => Math.log((tables.docs + 1) / ((own(tables.wordDf, s) ?? 0) + 1))
  const kp = (n: number | undefined) => Math.log1p((n ?? 0) * scale)
  let maxRank = 0
  for (const v of a.wordRank.values()) maxRank = Math.max(maxRank, v)
  // how many candidates contain each key: specific phrases inside general ones tend to be keys
  const containing = new Map<string, number>()
  for (const c of a.candidates) {
    if (c.words < 2) continue
    const parts = c.key.split(' ')
    for (let i = 0; i < parts.length; i++) {
      for (let j = i + 1; j <= parts.length; j++) {
        if (j - i === parts.length) continue
        const sub = parts.slice(i, j).join(' ')
        containing.set(sub, (containing.get(sub) ?? 0) + 1)
      }
    }
  }
  const T = Math.max(1, a.tokens)
  const rows = a.candidates.map((c) => {
    const stems = c.key.split(' ')
    const idfs = stems.map(idf)
    const meanIdf = idfs.reduce((x, y) => x + y, 0) / idfs.length
    const tf = c.starts.length
    const first = c.starts[0] as number
    const last = c.starts[c.starts.length - 1] as number
    const ph = own(tables.phrase, c.key)
    const wk = stems.map((s) => kp(own(tables.wordGold, s)))
    const head = stems[stems.length - 1] as string
    const ranks = stems.map((s) => (a.wordRank.get(s) ?? 0) / (maxRank || 1))
    const rankSum = ranks.reduce((x, y) => x + y, 0)
    const wordFreq = stems.reduce((x, s) => x + (a.stemCount.get(s) ?? 0), 0) / stems.length
    const inFirst = c.starts.filter((s) => s < a.firstSentenceEnd).length
    // of the documents where a word occurs, how often it is part of a keyphrase
    const rate = (n: number | undefined, s: string) => (n ?? 0) / ((own(tables.wordDf, s) ?? 0) + 2)
    const rates = stems.map((s) => rate(own(tables.wordGold, s), s))
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
      tf * 100 / T,
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
      Math.log1p(containing.get(c.key) ?? 0),
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
      0, 0, 0
    ])
  })
  // where a candidate stands among this document's own candidates, whatever the document's length
  const RELATIVE = ['tf-idf', 'rank sum', 'log keyphraseness'].map((f) => FEATURES.indexOf(f as typeof FEATURES[number]))
  RELATIVE.forEach((from, r) => {
    const to = FEATURES.length - RELATIVE.length + r
    const order = rows.map((row, i) => [row[from] as number, i] as const).sort((x, y) => y[0] - x[0])
    order.forEach(([, i], place) => { (rows[i] as Float32Array)[to] = place / Math.max(1, rows.length - 1) })
  })
  return rows
}

/**
 * Candidates best first by score; ties by key, so a text ranks the same alone and in a batch.
 * (Dropping phrases that only occur inside a chosen longer one, "vector machines" inside "support
 * vector machines", reads better but cost 0.003-0.007 F1@10 on Inspec, whose gold lists keep such
 * parts: not done.)
 */
export function rankCandidates (a: Analysed, scores: ArrayLike<number>): Array<{ candidate: Candidate, score: number }> {
  return a.candidates.map((candidate, i) => ({ candidate, score: scores[i] as number }))
    .sort((x, y) => y.score - x.score || (x.candidate.key < y.candidate.key ? -1 : 1))
}
