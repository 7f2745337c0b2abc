// Changes to labelled NER sentences (training/readers/ner.ts reads them): a sentence as text and re-cut
// by the service's tokeniser, lower-case and capitals copies, silver spans of common nouns cleared, and
// mention replacement.
import { tokenize, type Token } from '../../lib/text/ner/features.js'
import { isBegin, labelOf, typeOf, withEnds, withoutEnds } from '../../lib/text/ner/labels.js'
import type { Sentence } from './ner.js'

/** The corpus's tokens joined by single spaces, with where each starts: a sentence as text. */
export function joinWords (words: string[]): { text: string; starts: number[] } {
  const starts: number[] = []
  let text = ''
  for (const w of words) {
    if (text.length > 0) text += ' '
    starts.push(text.length)
    text += w
  }
  return { text, starts }
}

/**
 * A sentence re-cut by the service's tokeniser, labels carried over: serving tags its own tokens,
 * so training on the corpus's (e.g. Spanish "Educación." standing for "Educación y", or "Corp."
 * where the service may differ) would teach patterns it never sees. A token's first piece keeps its
 * label, later pieces continue its entity, except trailing punctuation where the entity ends there.
 */
export function retokenize (sentence: Sentence, lang: string): Sentence {
  const s = { words: sentence.words, labels: withoutEnds(sentence.labels) }
  const { text, starts } = joinWords(s.words)
  const toks = tokenize(text, Infinity, lang)
  const words: string[] = []
  const labels: number[] = []
  let g = 0
  for (let k = 0; k < toks.length; k++) {
    const tok = toks[k] as Token
    while (g + 1 < starts.length && (starts[g + 1] as number) <= tok.start) g++
    const y = s.labels[g] as number
    const first = tok.start === starts[g]
    let label = y
    if (!first && y !== 0) {
      const next = toks[k + 1]
      const lastPiece = next === undefined || (g + 1 < starts.length && next.start >= (starts[g + 1] as number))
      const continues =
        g + 1 < s.words.length &&
        (s.labels[g + 1] as number) !== 0 &&
        !isBegin(s.labels[g + 1] as number) &&
        typeOf(s.labels[g + 1] as number) === typeOf(y)
      label = lastPiece && !continues && !/[\p{L}\p{N}]/u.test(tok.text) ? 0 : labelOf(typeOf(y), 1)
    }
    words.push(tok.text)
    labels.push(label)
  }
  return { words, labels: withEnds(labels) }
}

/**
 * WikiANN's silver labels come from Wikipedia links, so linked common nouns pass for names ("Zur
 * Saison 2013/14" as a place). A span is cleared (set to O) when its first word is, in gold-labelled
 * German text (`reference`), at least `minSeen` times seen and mostly (>= `share`) outside entities.
 */
export function clearCommonNouns (silver: Sentence[], reference: Sentence[], minSeen = 2, share = 0.8): Sentence[] {
  const seen = new Map<string, [number, number]>()
  for (const s of reference) {
    s.words.forEach((w, i) => {
      const c = seen.get(w) ?? [0, 0]
      c[s.labels[i] === 0 ? 0 : 1]++
      seen.set(w, c)
    })
  }
  const common = (w: string) => {
    const c = seen.get(w)
    return c !== undefined && c[0] + c[1] >= minSeen && c[0] >= share * (c[0] + c[1])
  }
  return silver.map(s => {
    const labels = Uint8Array.from(s.labels)
    for (let i = 0; i < labels.length; i++) {
      if (!isBegin(labels[i] as number) || !common(s.words[i] as string)) continue
      labels[i] = 0
      for (let j = i + 1; j < labels.length && labels[j] !== 0 && !isBegin(labels[j] as number); j++) labels[j] = 0
    }
    return { words: s.words, labels }
  })
}

/** the PER/ORG/LOC entity spans of `sents` by type index (0 PER, 1 ORG, 2 LOC), as word arrays */
export function mentions (sents: Sentence[]): string[][][] {
  const out: string[][][] = [[], [], []]
  for (const s of sents) {
    for (let t = 0; t < s.words.length; t++) {
      const y = s.labels[t] as number
      if (!isBegin(y) || typeOf(y) > 2) continue
      let e = t + 1
      while (e < s.words.length && (s.labels[e] as number) !== 0 && !isBegin(s.labels[e] as number)) e++
      out[typeOf(y)]!.push(s.words.slice(t, e))
    }
  }
  return out
}

/**
 * Mention replacement (Dai and Adel 2020): `copies` copies of every sentence that names a person,
 * organisation or place, each such name replaced by one of the same type drawn from `pool`
 * (mentions()), the rest of the sentence and its labels kept. The tagger sees the sentences'
 * contexts with names it has not seen there, so it learns the contexts rather than the names.
 * `from[i]` is the index in `sents` of the sentence copy i was made from.
 */
export function replaceMentions (
  sents: Sentence[],
  pool: string[][][],
  copies: number,
  random: () => number
): { sents: Sentence[]; from: number[] } {
  const out: Sentence[] = []
  const from: number[] = []
  sents.forEach((s, i) => {
    if (!s.labels.some(y => y !== 0 && typeOf(y) <= 2)) return
    for (let c = 0; c < copies; c++) {
      const words: string[] = []
      const labels: number[] = []
      for (let t = 0; t < s.words.length;) {
        const y = s.labels[t] as number
        let e = t + 1
        if (y !== 0) while (e < s.words.length && (s.labels[e] as number) !== 0 && !isBegin(s.labels[e] as number)) e++
        const type = typeOf(y)
        const choices = type >= 0 && type <= 2 ? (pool[type] as string[][]) : []
        if (isBegin(y) && choices.length > 0) {
          const m = choices[Math.floor(random() * choices.length)] as string[]
          m.forEach((w, k) => {
            words.push(w)
            labels.push(labelOf(type, k === 0 ? 0 : 1))
          })
        } else {
          for (let k = t; k < e; k++) {
            words.push(s.words[k] as string)
            labels.push(y === 0 ? 0 : labelOf(type, k === t ? 0 : 1))
          }
        }
        t = e
      }
      out.push({ words, labels: withEnds(labels) })
      from.push(i)
    }
  })
  return { sents: out, from }
}

/**
 * Copies of a seeded share of the sentences in lower case (`lower`) and in capitals (`upper`),
 * labels unchanged: text on the web comes in every case, and a tagger that has seen only edited
 * text takes every capital for a name and misses every lower-case one.
 */
export function caseVariants (sents: Sentence[], lower: number, upper: number, random: () => number): Sentence[] {
  const out: Sentence[] = []
  for (const s of sents) {
    const r = random()
    if (r < lower) out.push({ words: s.words.map(w => w.toLowerCase()), labels: s.labels })
    else if (r < lower + upper) out.push({ words: s.words.map(w => w.toUpperCase()), labels: s.labels })
  }
  return out
}
