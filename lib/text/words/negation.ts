// Negation scope (Das & Chen 2001; Pang, Lee & Vaithyanathan 2002): the words after a negating word
// ("not", "never", "no", "don't", "isnt" ...) up to the end of the clause (a punctuation mark or
// "but") are under negation. A model reads them as features of their own as well, so that "not good"
// and "never really good" can learn a weight apart from "good". The negating words are English's
// closed class of them, spelt with and without the apostrophe as tweets write them.

const NEGATORS = new Set([
  'not',
  'no',
  'never',
  'nothing',
  'nobody',
  'none',
  'nowhere',
  'neither',
  'nor',
  'cannot',
  'without',
  'hardly',
  'barely',
  'scarcely',
  'dont',
  'doesnt',
  'didnt',
  'isnt',
  'arent',
  'wasnt',
  'werent',
  'cant',
  'couldnt',
  'wont',
  'wouldnt',
  'shouldnt',
  'aint',
  'havent',
  'hasnt',
  'hadnt',
  'neednt',
  'mustnt'
])
/** a clause ends at a punctuation mark or a contrast */
const CLAUSE_END = new Set([
  '.',
  ',',
  ';',
  ':',
  '!',
  '?',
  '(',
  ')',
  '\u2026',
  'but',
  'however',
  'although',
  'though',
  'yet'
])

export const isNegator = (token: string) => NEGATORS.has(token) || token.endsWith("n't")

/**
 * Whether a lower-case text may hold a negating word (true for every text that does): a quick test before
 * tokenising it.
 */
export const mayNegate = (lower: string) => MAY_NEGATE.test(lower)
const MAY_NEGATE =
  /\b(?:not|no|never|nothing|nobody|none|nowhere|neither|nor|cannot|without|hardly|barely|scarcely)\b|nt\b|n't/

/** For each token (lower case, as lib/text/bag/features.ts tokens gives them): 1 when it is under negation, else 0. */
export function negationScope (tokens: readonly string[]): Uint8Array {
  const out = new Uint8Array(tokens.length)
  let on = false
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as string
    if (CLAUSE_END.has(t)) {
      on = false
      continue
    }
    if (isNegator(t)) {
      on = true
      continue
    }
    if (on) out[i] = 1
  }
  return out
}
