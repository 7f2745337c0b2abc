// Keyphrase candidates of a document and the per-document statistics the features read (analyse):
// noun phrases found with wink-nlp's part-of-speech tags (runs of adjectives, nouns and
// participles, every sub-phrase of up to MAX_WORDS words that ends in a noun, and "X of Y"),
// keyed by their Porter2 stems (lib/text/keywords/tokens.ts), and PositionRank word scores.
import { HEAD, tokenise, usable, type Token } from './tokens.js'

/** Texts are read up to this many characters: keyphrases of long documents sit in their first pages. */
export const MAX_CHARS = 20_000
export const MAX_WORDS = 5

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

/** Longer runs without spaces (encoded data, hashes, long addresses) are no phrases, and slow the tagger. */
const LONG_RUN = /\S{64,}/g

export function analyse (raw: string): Analysed {
  const text = (raw.length > MAX_CHARS ? raw.slice(0, MAX_CHARS) : raw).replace(LONG_RUN, ' ')
  const toks = tokenise(text)
  const { chunks, heads } = chunk(toks)
  const stemCount = new Map<string, number>()
  for (const t of toks) if (usable(t)) for (const s of t.stems) stemCount.set(s, (stemCount.get(s) ?? 0) + 1)
  const firstSentenceEnd = toks.findIndex(t => t.sentence > 0)
  const firstLineEnd = toks.findIndex(t => t.line > 0)
  return {
    tokens: toks.length,
    sentences: (toks[toks.length - 1]?.sentence ?? 0) + 1,
    firstSentenceEnd: firstSentenceEnd < 0 ? toks.length : firstSentenceEnd,
    firstLineEnd: firstLineEnd < 0 ? toks.length : firstLineEnd,
    candidates: candidates(toks, chunks, heads),
    stemCount,
    wordRank: positionRank(toks)
  }
}

/**
 * Chunks: runs of usable tokens, where a participle may describe the next noun ("supervised
 * learning", "matching problem") and a gerund may close a noun compound ("constraint handling");
 * `heads[i]` says whether a phrase may end on token i.
 */
function chunk (toks: Token[]): { chunks: Array<[number, number]>; heads: boolean[] } {
  const chunks: Array<[number, number]> = []
  let start = -1
  const head = (i: number) => {
    const t = toks[i] as Token
    return HEAD.has(t.pos) || (t.pos === 'VBG' && i > start && start >= 0 && HEAD.has((toks[i - 1] as Token).pos))
  }
  const heads: boolean[] = []
  for (let i = 0; i <= toks.length; i++) {
    const t = toks[i]
    const modifier =
      t !== undefined &&
      (t.pos === 'VBN' || t.pos === 'VBG') &&
      !t.stop &&
      toks[i + 1] !== undefined &&
      usable(toks[i + 1] as Token)
    const ok =
      t !== undefined &&
      (usable(t) || modifier || (t.pos === 'VBG' && !t.stop && start >= 0 && HEAD.has((toks[i - 1] as Token).pos)))
    if (ok && start < 0) start = i
    if (ok) heads[i] = head(i)
    if (!ok && start >= 0) {
      chunks.push([start, i])
      start = -1
    }
  }
  return { chunks, heads }
}

/** A new candidate for the tokens `span`, before its occurrences are counted. */
function candidate (key: string, span: Token[], of: boolean): Candidate {
  return {
    key,
    surface: '',
    words: span.reduce((s, t) => s + t.stems.length, 0),
    starts: [],
    maximal: false,
    capitalised: span.filter(t => !t.sentenceStart && /^\p{Lu}/u.test(t.text)).length / span.length,
    acronym: span.some(t => t.text.length > 1 && /^[\p{Lu}\d-]+$/u.test(t.text)),
    proper: span.some(t => t.pos === 'PROPN'),
    startsAdj: span[0]?.pos === 'ADJ' || span[0]?.pos === 'VBN',
    of,
    gerund: span.some(t => t.pos === 'VBG'),
    definesAcronym: false,
    afterDeterminer: 0,
    beforeOf: 0
  }
}

/** Every phrase of the chunks that ends on a head, and "X of Y" across two chunks, one candidate per stem key. */
function candidates (toks: Token[], chunks: Array<[number, number]>, heads: boolean[]): Candidate[] {
  const lowerSeen = new Set(toks.filter(t => !/\p{Lu}/u.test(t.text)).map(t => t.text))
  // a sentence-initial capital is not part of the phrase, unless the word is a name
  const plain = (t: Token) => t.pos !== 'PROPN' || lowerSeen.has(t.text.toLowerCase())
  const lowered = (t: Token) => t.sentenceStart && /^\p{Lu}\p{Ll}*$/u.test(t.text) && plain(t)
  // each token's part of a key and of a surface form, computed once
  const keyOf = toks.map(t => t.stems.join(' '))
  const shownOf = toks.map(t => (lowered(t) ? t.text.toLowerCase() : t.text))
  const lower = toks.map(t => t.text.toLowerCase())
  const byKey = new Map<string, Candidate>()
  const surfaceCount = new Map<string, Map<string, number>>()
  const add = (a: number, b: number, key: string, surface: string, maximal: boolean, of = false) => {
    let c = byKey.get(key)
    if (c === undefined) {
      c = candidate(key, toks.slice(a, b), of)
      byKey.set(key, c)
      surfaceCount.set(key, new Map<string, number>())
    }
    c.starts.push(a)
    c.maximal ||= maximal
    const before = lower[a - 1]
    if (before === 'a' || before === 'an' || before === 'the') c.afterDeterminer++
    if (lower[b] === 'of') c.beforeOf++
    const acronymAfter = toks[b]?.text === '(' && toks[b + 2]?.text === ')'
    if (acronymAfter && /^[\p{Lu}][\p{Lu}\d-]*s?$/u.test(toks[b + 1]?.text ?? '')) c.definesAcronym = true
    const forms = surfaceCount.get(key) as Map<string, number>
    forms.set(surface, (forms.get(surface) ?? 0) + 1)
  }
  for (const [a, b] of chunks) {
    for (let i = a; i < b; i++) {
      let key = ''
      let surface = ''
      for (let j = i + 1; j <= Math.min(b, i + MAX_WORDS); j++) {
        key = j === i + 1 ? (keyOf[i] as string) : `${key} ${keyOf[j - 1] as string}`
        surface = j === i + 1 ? (shownOf[i] as string) : `${surface} ${shownOf[j - 1] as string}`
        if (heads[j - 1] !== true) continue
        add(i, j, key, surface, i === a && j === b)
      }
    }
  }
  // "philosophy of mind", "quality of service": a noun, "of", and the head of the next chunk
  const joined = (parts: string[], i: number, j: number) => parts.slice(i, j).join(' ')
  for (let k = 1; k < chunks.length; k++) {
    const [a, b] = chunks[k - 1] as [number, number]
    const [c, d] = chunks[k] as [number, number]
    if (c !== b + 1 || lower[b] !== 'of' || heads[b - 1] !== true) continue
    for (let i = Math.max(a, b - 2); i < b; i++) {
      for (let j = c + 1; j <= Math.min(d, c + 2); j++) {
        if (heads[j - 1] !== true || j - i > MAX_WORDS) continue
        add(i, j, joined(keyOf, i, j), joined(shownOf, i, j), false, true)
      }
    }
  }
  // the surface shown is the candidate's most frequent form
  for (const c of byKey.values()) {
    const forms = [...(surfaceCount.get(c.key) as Map<string, number>)]
    c.surface = forms.sort((x, y) => y[1] - x[1])[0]![0]
  }
  return [...byKey.values()]
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
  const ids = seq.map(s => index.get(s) as number)
  ids.forEach((id, p) => {
    bias[id]! += 1 / (p + 1)
  })
  const bsum = bias.reduce((a, b) => a + b, 0)
  for (let i = 0; i < n; i++) bias[i]! /= bsum
  // the weighted edges grouped by their first word, in the order words and their neighbours first
  // meet (the sums below run in that order), then flat for the iterations
  const slot = new PairSlots(n, ids.length * window * 2)
  const nbrs: number[][] = []
  const weights: number[][] = []
  const order: number[] = []
  const link = (a: number, b: number) => {
    const at = slot.get(a, b)
    if (at >= 0) {
      ;(weights[a] as number[])[at]!++
      return
    }
    if (nbrs[a] === undefined) {
      nbrs[a] = []
      weights[a] = []
      order.push(a)
    }
    slot.set(a, b, (nbrs[a] as number[]).length)
    ;(nbrs[a] as number[]).push(b)
    ;(weights[a] as number[]).push(1)
  }
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < Math.min(ids.length, i + window); j++) {
      if (ids[i] === ids[j]) continue
      link(ids[i] as number, ids[j] as number)
      link(ids[j] as number, ids[i] as number)
    }
  }
  const src: number[] = []
  const dst: number[] = []
  const w: number[] = []
  const outSum = new Float64Array(n)
  for (const a of order) {
    const ws = weights[a] as number[]
    ;(nbrs[a] as number[]).forEach((b, k) => {
      src.push(a)
      dst.push(b)
      w.push(ws[k] as number)
    })
    for (const x of weights[a] as number[]) outSum[a]! += x
  }
  let r = Float64Array.from(bias)
  for (let it = 0; it < iterations; it++) {
    const next = new Float64Array(n)
    for (let i = 0; i < n; i++) next[i] = (1 - damping) * (bias[i] as number)
    let share = 0
    for (let e = 0; e < src.length; e++) {
      const a = src[e] as number
      if (e === 0 || a !== src[e - 1]) share = (damping * (r[a] as number)) / (outSum[a] as number)
      next[dst[e] as number]! += share * (w[e] as number)
    }
    r = next
  }
  for (const [s, i] of index) rank.set(s, r[i] as number)
  return rank
}

/**
 * Where the edge a -> b sits in a's list: an open-addressing table keyed by a * n + b, which stays an
 * int32 for n words up to 46,340 (a text of MAX_CHARS characters holds fewer).
 */
class PairSlots {
  private readonly keys: Int32Array
  private readonly values: Int32Array
  private readonly mask: number
  constructor (
    private readonly n: number,
    pairs: number
  ) {
    if (n > 46_340) throw new Error(`too many words for PairSlots: ${n}`)
    let size = 1024
    while (size < pairs * 2) size *= 2
    this.keys = new Int32Array(size).fill(-1)
    this.values = new Int32Array(size)
    this.mask = size - 1
  }

  private find (key: number): number {
    let i = (Math.imul(key, 0x9e3779b1) >>> 0) & this.mask
    while (this.keys[i] !== -1 && this.keys[i] !== key) i = (i + 1) & this.mask
    return i
  }

  get (a: number, b: number): number {
    const i = this.find(a * this.n + b)
    return this.keys[i] === -1 ? -1 : (this.values[i] as number)
  }

  set (a: number, b: number, value: number): void {
    const key = a * this.n + b
    const i = this.find(key)
    this.keys[i] = key
    this.values[i] = value
  }
}
