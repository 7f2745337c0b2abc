// Word classes for the keyphrase candidates of the languages the stopword ranker serves
// (lib/text/keywords/stopwords.ts): from the part-of-speech column of CoNLL-2002 (Spanish and Dutch
// newswire), each word's most frequent coarse class. Only the classes a candidate pattern needs
// are stored: verbs and function words (a keyphrase never holds one) and adjectives (one may not end a Dutch phrase or
// begin a Spanish one); every other word of the text is judged by the stopword list. German has no
// tagged data here: its nouns are capitalised, which the ranker reads instead.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { need } from '../readers/data.js'
import { parseWordClasses, stopwordKeyphrases } from '../../lib/text/keywords/stopwords.js'
import { average, scoreDoc, type Scores } from '../readers/keywords.js'

export const POS_SOURCE = {
  name: 'CoNLL-2002 part-of-speech column (Spanish, Dutch)',
  path: 'ner/conll2002-es-nl',
  licence: 'research use only, not commercial (CoNLL-2002 README)'
}

/**
 * tag -> 'V' verb, 'A' adjective (Spanish participles VMP count as adjectives), 'N' noun, 'F' a function word or
 * adverb, '' punctuation and the rest
 */
function coarse (lang: string, tag: string): string {
  if (lang === 'es') {
    if (tag === 'VMP' || tag.startsWith('AQ') || tag.startsWith('AO')) return 'A'
    if (tag.startsWith('V')) return 'V'
    if (tag === 'NC' || tag === 'NP') return 'N'
    return /^[RDPSCZI]/.test(tag) ? 'F' : ''
  }
  if (tag === 'V') return 'V'
  if (tag === 'Adj') return 'A'
  if (tag === 'N') return 'N'
  return ['Adv', 'Pron', 'Prep', 'Conj', 'Art', 'Num', 'Int'].includes(tag) ? 'F' : ''
}

export interface PosLexicon {
  verbs: string[]
  adjectives: string[]
  function: string[]
  words: number
}

/**
 * the verbs, adjectives and function words (lower-cased, by their most frequent class) of a CoNLL-2002 training
 * file
 */
export function posLexicon (lang: 'es' | 'nl'): PosLexicon {
  const file = lang === 'es' ? 'esp.train' : 'ned.train'
  const counts = new Map<string, Map<string, number>>()
  for (const line of readFileSync(need(`ner/conll2002-es-nl/${file}`), 'utf8').split(/\r?\n/)) {
    const f = line.split(' ')
    if (f.length !== 3 || f[0] === '-DOCSTART-') continue
    const w = (f[0] as string).toLowerCase()
    const c = coarse(lang, f[1] as string)
    const m = counts.get(w) ?? new Map<string, number>()
    m.set(c, (m.get(c) ?? 0) + 1)
    counts.set(w, m)
  }
  const verbs: string[] = []
  const adjectives: string[] = []
  const fn: string[] = []
  for (const [w, m] of counts) {
    const best = [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0]
    if (best === 'V') verbs.push(w)
    else if (best === 'A') adjectives.push(w)
    else if (best === 'F' && /\p{L}/u.test(w)) fn.push(w)
  }
  return { verbs: verbs.sort(), adjectives: adjectives.sort(), function: fn.sort(), words: counts.size }
}

/** pos.json of a keywords model folder: the word classes of Spanish and Dutch */
export function posTables (): {
  json: string
  data: Array<{ name: string; path: string; licence: string; split: string; rows: number }>
} {
  const tables: Record<string, { verbs: string[]; adjectives: string[]; function: string[] }> = {}
  const data = (['es', 'nl'] as const).map(lang => {
    const t = posLexicon(lang)
    tables[lang] = { verbs: t.verbs, adjectives: t.adjectives, function: t.function }
    return {
      ...POS_SOURCE,
      name: `${POS_SOURCE.name} [${lang}, word classes of the stopword ranker]`,
      split:
        `${lang === 'es' ? 'esp' : 'ned'}.train: ${t.verbs.length} verbs, ${t.adjectives.length} adjectives and ` +
        `${t.function.length} function words and adverbs of ${t.words} words (each word's most frequent class)`,
      rows: t.words
    }
  })
  return { json: JSON.stringify(tables), data }
}

export const TERMEX = {
  name: 'Spanish termex (SemEval-2017 ScienceIE paragraphs machine-translated to Spanish)',
  path: 'keyphrase/termex-es',
  licence: 'Apache-2.0 (repository); ScienceDirect paragraphs, research use'
}

/**
 * Spanish termex documents (no split: all of them; nothing is tuned on them) with their gold keyphrases,
 * lower-cased
 */
export function termexDocs (): Array<{ text: string; gold: Set<string> }> {
  const dir = need('keyphrase/termex-es')
  return readdirSync(join(dir, 'docsutf8'))
    .filter(f => f.endsWith('.txt'))
    .sort()
    .map(f => {
      const key = join(dir, 'keys', f.replace(/\.txt$/, '.key'))
      const gold = existsSync(key)
        ? readFileSync(key, 'utf8')
          .split(/\r?\n/)
          .map(phraseNorm)
          .filter(k => k !== '')
        : []
      return { text: readFileSync(join(dir, 'docsutf8', f), 'utf8'), gold: new Set(gold) }
    })
}

/** exact-match key of a keyphrase, as the termex benchmark compares them: lower case, single spaces */
export const phraseNorm = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim()

/** F1@10 (exact match) of the stopword ranker with the Spanish word classes of `posJson` on every termex document */
export function termexF1 (posJson: string): { docs: number; s: Scores } {
  const es = parseWordClasses(posJson).get('es')
  const docs = termexDocs()
  return {
    docs: docs.length,
    s: average(
      docs.map(d =>
        scoreDoc(
          stopwordKeyphrases(d.text, 'es', 10, es).map(k => phraseNorm(k.keyword)),
          d.gold
        )
      )
    )
  }
}
