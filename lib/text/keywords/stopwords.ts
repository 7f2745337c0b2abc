// Keyphrases for languages without keyphrase training data here (es, nl, de): a statistical ranker
// over stopword-delimited candidates, in the manner of RAKE (Rose et al. 2010) and YAKE (Campos et
// al. 2020). Candidates are runs of up to MAX_WORDS content words (words of two or more characters
// that are not in the language's stopwords-iso list), cut at stopwords and punctuation. A word
// weighs by how often it occurs, how early it first occurs and how often it stands inside a longer
// candidate; a phrase by its words' mean weight and its own frequency. No model: nothing here is
// learned, and for lack of data in these languages it is measured only on English (Inspec, with the
// English stopwords), where `npm run eval` prints its figure beside the trained English ranker.
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { MAX_CHARS } from './candidates.js'
import type { Keyword } from './ranker.js'

/** the languages this ranker serves (English has the trained one) */
export const STOPWORD_LANGUAGES = ['es', 'nl', 'de', 'fr', 'it', 'pt'] as const

const MAX_WORDS = 4
// words with inner hyphens, apostrophes and dots ("Bol.com", "minister-president") stay whole
const TOKEN = /[\p{L}\p{M}\p{N}]+(?:[-'’.][\p{L}\p{M}\p{N}]+)*|[^\s\p{L}\p{M}\p{N}]/gu
const CAPITAL = /^\p{Lu}/u

/**
 * What the candidate patterns know of a language's words (training/trainers/keywords-pos.ts): its verbs,
 * function words and adverbs (`breaks`), which end a candidate as a stopword does, its adjectives,
 * and the words that may link two nouns inside a phrase (Spanish "proceso de Langevin").
 */
export interface WordClasses {
  breaks: Set<string>
  adjectives: Set<string>
  links: Set<string>
}
/** Spanish noun phrases join nouns with "de"; the other languages compound or use a genitive */
export const LINKS: Record<string, string[]> = { es: ['de', 'del'] }

/** the word classes of pos.json (training/trainers/keywords-pos.ts), per language */
export function parseWordClasses (json: string): Map<string, WordClasses> {
  const pos = JSON.parse(json) as Record<string, { verbs: string[]; adjectives: string[]; function: string[] }>
  return new Map(
    Object.entries(pos).map(([lang, c]) => [
      lang,
      {
        breaks: new Set([...c.verbs, ...c.function]),
        adjectives: new Set(c.adjectives),
        links: new Set(LINKS[lang] ?? [])
      }
    ])
  )
}

interface Item {
  low: string
  start: number
  end: number
  link: boolean
  cap: boolean
}

/**
 * Whether a run of words is a keyphrase pattern (a noun phrase, as far as the language's word
 * classes tell): no link word at either end and at most one inside; Spanish does not begin with
 * an adjective (its adjectives follow the noun); Dutch and English do not end on one; German ends
 * on capitalised words (its nouns) with only lower-case words (adjectives) before them.
 */
function isPattern (words: Item[], lang: string, classes?: WordClasses): boolean {
  const first = words[0] as Item
  const last = words[words.length - 1] as Item
  if (first.link || last.link || words.filter(w => w.link).length > 1) return false
  if (lang === 'de') {
    const k = words.findIndex(w => w.cap)
    return k >= 0 && words.slice(k).every(w => w.cap)
  }
  if (classes === undefined) return true
  if (lang === 'es') return !classes.adjectives.has(first.low)
  return !classes.adjectives.has(last.low)
}
const LETTER = /\p{L}/u
const DIGIT = /\p{N}/u
const SENTENCE_END = new Set(['.', '!', '?', ';', ':', '¿', '¡'])

const stopwords = new Map<string, Set<string>>()
/** the stopwords-iso list of a language, lower-cased (an unknown code has none) */
export function stopwordsOf (lang: string): Set<string> {
  let set = stopwords.get(lang)
  if (set === undefined) {
    const all = createRequire(import.meta.url)('stopwords-iso') as Record<string, string[]>
    set = new Set((all[lang] ?? []).map(w => w.toLowerCase()))
    stopwords.set(lang, set)
  }
  return set
}

interface Phrase {
  key: string
  surface: string
  words: string[]
  count: number
}

/** a text's runs of content words, and each content word's first sentence, first offset and count */
interface Runs {
  runs: Item[][]
  firstSentence: Map<string, number>
  firstAt: Map<string, number>
  tf: Map<string, number>
}

/**
 * The runs of content words of a text (and link words between them), cut at its stopwords, punctuation and
 * (with `classes`) verbs, with each word's first sentence index and offset and its count.
 */
function contentRuns (text: string, stop: Set<string>, classes: WordClasses | undefined): Runs {
  // runs of content words (and link words between them), with each word's sentence index
  const runs: Item[][] = []
  let run: Item[] = []
  const firstSentence = new Map<string, number>()
  const firstAt = new Map<string, number>()
  const tf = new Map<string, number>()
  let sentence = 0
  const close = () => {
    while (run.length > 0 && run[run.length - 1]!.link) run.pop()
    if (run.length > 0) runs.push(run)
    run = []
  }
  for (const m of text.matchAll(TOKEN)) {
    const w = m[0]
    if (!LETTER.test(w) && !DIGIT.test(w)) {
      close()
      if (SENTENCE_END.has(w)) sentence++
      continue
    }
    const low = w.toLowerCase()
    if (classes?.links.has(low) === true && run.length > 0 && !run[run.length - 1]!.link) {
      run.push({ low, start: m.index, end: m.index + w.length, link: true, cap: false })
      continue
    }
    if (w.length < 2 || !LETTER.test(w) || stop.has(low) || classes?.breaks.has(low) === true) {
      close()
      continue
    }
    run.push({ low, start: m.index, end: m.index + w.length, link: false, cap: CAPITAL.test(w) })
    tf.set(low, (tf.get(low) ?? 0) + 1)
    if (!firstSentence.has(low)) {
      firstSentence.set(low, sentence)
      firstAt.set(low, m.index)
    }
  }
  close()
  return { runs, firstSentence, firstAt, tf }
}

/** The candidates of the runs, by their words (lower-cased), and each word's degree. */
function candidatePhrases (
  text: string,
  runs: Item[][],
  lang: string,
  classes: WordClasses | undefined
): { phrases: Map<string, Phrase>; degree: Map<string, number> } {
  // every sub-run of up to MAX_WORDS words is a candidate; a word's degree counts the words it
  // stands beside in the runs (RAKE), so words of multi-word terms weigh more than loose ones
  const phrases = new Map<string, Phrase>()
  const degree = new Map<string, number>()
  for (const r of runs) {
    const content = r.filter(w => !w.link).length
    for (const w of r) if (!w.link) degree.set(w.low, (degree.get(w.low) ?? 0) + Math.min(content, MAX_WORDS))
    for (let i = 0; i < r.length; i++) {
      for (let n = 1; i + n <= r.length; n++) {
        const words = r.slice(i, i + n)
        if (words.filter(w => !w.link).length > MAX_WORDS) break
        if (!isPattern(words, lang, classes)) continue
        const key = words.map(w => w.low).join(' ')
        const p = phrases.get(key)
        if (p !== undefined) {
          p.count++
          continue
        }
        phrases.set(key, {
          key,
          surface: text.slice(words[0]!.start, words[n - 1]!.end),
          words: words.filter(w => !w.link).map(w => w.low),
          count: 1
        })
      }
    }
  }
  return { phrases, degree }
}

/**
 * At most `top` keyphrases of `text`, best first: candidates cut at stopwords, punctuation and
 * (with `classes`) verbs, kept where they fit the language's noun-phrase pattern (isPattern).
 * Confidence is the phrase's score against the mean candidate's, score / (score + mean): no two
 * phrases tie unless their scores do, and ties are broken by which comes first in the text.
 */
export function stopwordKeyphrases (raw: string, lang: string, top: number, classes?: WordClasses): Keyword[] {
  const text = raw.length > MAX_CHARS ? raw.slice(0, MAX_CHARS) : raw
  const { runs, firstSentence, firstAt, tf } = contentRuns(text, stopwordsOf(lang), classes)
  const { phrases, degree } = candidatePhrases(text, runs, lang, classes)
  // a word weighs more for being frequent, early, and part of longer terms
  const weight = new Map<string, number>()
  for (const [w, f] of tf) {
    weight.set(w, (Math.log(1 + f) * ((degree.get(w) ?? f) / f)) / Math.log(2 + (firstSentence.get(w) ?? 0)))
  }
  const scored = [...phrases.values()]
    .map(p => {
      const mean = p.words.reduce((a, w) => a + (weight.get(w) as number), 0) / p.words.length
      // and, as in PositionRank, a little more the earlier it first comes (a smooth factor in (1, 2],
      // which also parts phrases that are otherwise alike)
      const at = firstAt.get(p.words[0] as string) ?? 0
      return { p, score: mean * Math.log(1 + p.count) * Math.sqrt(p.words.length) * (1 + 1 / (1 + at / 100)), at }
    })
    .sort((a, b) => b.score - a.score || a.at - b.at || a.p.key.localeCompare(b.p.key))
  const out: Keyword[] = []
  const chosen: string[] = []
  const typical = scored.reduce((a, x) => a + x.score, 0) / Math.max(1, scored.length)
  for (const { p, score } of scored) {
    if (out.length === top) break
    // a phrase inside one already chosen adds little
    if (chosen.some(c => ` ${c} `.includes(` ${p.key} `))) continue
    chosen.push(p.key)
    out.push({
      keyword: p.surface.replace(/\s+/g, ' '),
      confidence_score: score > 0 ? Number((score / (score + typical)).toFixed(4)) : 0
    })
  }
  return out
}

/**
 * The word classes of the stopword ranker's languages (pos.json, written by training/trainers/keywords-pos.ts:
 * verbs, adjectives and function words per language); a model folder without it gives none, and its languages are
 * cut at stopwords only. German needs none (isPattern reads its capitals).
 */
export async function wordClasses (dir: string): Promise<Map<string, WordClasses>> {
  let raw: string
  try {
    raw = await readFile(join(dir, 'pos.json'), 'utf8')
  } catch {
    return new Map()
  }
  return parseWordClasses(raw)
}
