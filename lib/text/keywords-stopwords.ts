// Keyphrases for languages without keyphrase training data here (es, nl, de): a statistical ranker
// over stopword-delimited candidates, in the manner of RAKE (Rose et al. 2010) and YAKE (Campos et
// al. 2020). Candidates are runs of up to MAX_WORDS content words (words of two or more characters
// that are not in the language's stopwords-iso list), cut at stopwords and punctuation. A word
// weighs by how often it occurs, how early it first occurs and how often it stands inside a longer
// candidate; a phrase by its words' mean weight and its own frequency. No model: nothing here is
// learned, and for lack of data in these languages it is measured only on English (Inspec, with the
// English stopwords), where `npm run eval` prints its figure beside the trained English ranker.
import { createRequire } from 'node:module'
import { MAX_CHARS } from './keywords-features.js'
import type { Keyword } from './keywords.js'

/** the languages this ranker serves (English has the trained one) */
export const STOPWORD_LANGUAGES = ['es', 'nl', 'de', 'fr', 'it', 'pt'] as const

const MAX_WORDS = 4
const TOKEN = /[\p{L}\p{M}\p{N}]+(?:[-'’][\p{L}\p{M}\p{N}]+)*|[^\s\p{L}\p{M}\p{N}]/gu
const LETTER = /\p{L}/u
const DIGIT = /\p{N}/u
const SENTENCE_END = new Set(['.', '!', '?', ';', ':', '¿', '¡'])

const stopwords = new Map<string, Set<string>>()
/** the stopwords-iso list of a language, lower-cased (an unknown code has none) */
export function stopwordsOf (lang: string): Set<string> {
  let set = stopwords.get(lang)
  if (set === undefined) {
    const all = createRequire(import.meta.url)('stopwords-iso') as Record<string, string[]>
    set = new Set((all[lang] ?? []).map((w) => w.toLowerCase()))
    stopwords.set(lang, set)
  }
  return set
}

interface Phrase { key: string, surface: string, words: string[], count: number }

/** At most `top` keyphrases of `text`, best first; confidence is the score over the best one's. */
export function stopwordKeyphrases (raw: string, lang: string, top: number): Keyword[] {
  const text = raw.length > MAX_CHARS ? raw.slice(0, MAX_CHARS) : raw
  const stop = stopwordsOf(lang)
  // runs of content words, with each word's sentence index
  const runs: Array<Array<{ low: string, start: number, end: number }>> = []
  let run: Array<{ low: string, start: number, end: number }> = []
  const firstSentence = new Map<string, number>()
  const tf = new Map<string, number>()
  let sentence = 0
  const close = () => { if (run.length > 0) runs.push(run); run = [] }
  for (const m of text.matchAll(TOKEN)) {
    const w = m[0]
    if (!LETTER.test(w) && !DIGIT.test(w)) {
      close()
      if (SENTENCE_END.has(w)) sentence++
      continue
    }
    const low = w.toLowerCase()
    if (w.length < 2 || !LETTER.test(w) || stop.has(low)) { close(); continue }
    run.push({ low, start: m.index, end: m.index + w.length })
    tf.set(low, (tf.get(low) ?? 0) + 1)
    if (!firstSentence.has(low)) firstSentence.set(low, sentence)
  }
  close()
  // every sub-run of up to MAX_WORDS words is a candidate; a word's degree counts the words it
  // stands beside in the runs (RAKE), so words of multi-word terms weigh more than loose ones
  const phrases = new Map<string, Phrase>()
  const degree = new Map<string, number>()
  for (const r of runs) {
    for (const w of r) degree.set(w.low, (degree.get(w.low) ?? 0) + Math.min(r.length, MAX_WORDS))
    for (let i = 0; i < r.length; i++) {
      for (let n = 1; n <= MAX_WORDS && i + n <= r.length; n++) {
        const words = r.slice(i, i + n)
        const key = words.map((w) => w.low).join(' ')
        const p = phrases.get(key)
        if (p !== undefined) { p.count++; continue }
        phrases.set(key, { key, surface: text.slice(words[0]!.start, words[n - 1]!.end), words: words.map((w) => w.low), count: 1 })
      }
    }
  }
  // a word weighs more for being frequent, early, and part of longer terms
  const weight = new Map<string, number>()
  for (const [w, f] of tf) weight.set(w, Math.log(1 + f) * ((degree.get(w) ?? f) / f) / Math.log(2 + (firstSentence.get(w) ?? 0)))
  const scored = [...phrases.values()].map((p) => {
    const mean = p.words.reduce((a, w) => a + (weight.get(w) as number), 0) / p.words.length
    return { p, score: mean * Math.log(1 + p.count) * Math.sqrt(p.words.length) }
  }).sort((a, b) => b.score - a.score || a.p.key.localeCompare(b.p.key))
  const out: Keyword[] = []
  const chosen: string[] = []
  const best = scored[0]?.score ?? 0
  for (const { p, score } of scored) {
    if (out.length === top) break
    // a phrase inside one already chosen adds little
    if (chosen.some((c) => ` ${c} `.includes(` ${p.key} `))) continue
    chosen.push(p.key)
    out.push({ keyword: p.surface.replace(/\s+/g, ' '), confidence_score: best > 0 ? Number((score / best).toFixed(4)) : 0 })
  }
  return out
}
