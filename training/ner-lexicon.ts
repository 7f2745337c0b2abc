// The word lexicon feature of the NER tagger (see LEXICON_SIZE in lib/text/ner-features.ts): what
// each word was in the training data. Training sentences see a lexicon built from the other nine
// tenths of the data, as served text sees one built without it.
import { LEXICON_MIN, LEXICON_SIZE, lexiconKey, lowerForm, typeOf } from '../lib/text/ner-features.js'
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
