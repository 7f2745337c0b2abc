// Target (aspect) sentiment input: where an aspect is in a text, and the text rewritten for the
// embedding-bag classifier so that the words around the aspect count apart from the rest: the
// whole text, then the words of the aspect's clause (between punctuation or a contrast word such
// as "but"), prefixed c_, and up to WINDOW words either side, prefixed l_ and r_, NEAR_REPEAT times. Training
// (training/recipes/target_sentiment.ts) and serving (plugins/ops/target_sentiment.ts) both use it.

export const WINDOW = 4
/**
 * the marked words are written this many times: the bag averages its features, so this weighs them against the
 * whole text
 */
export const NEAR_REPEAT = 3
const WORD = /[\p{L}\p{M}\p{N}_']+/gu
const BREAK = /[,;:.!?()]|\b(?:but|however|although|though|while|whereas|except|yet)\b/giu

export interface Span {
  start: number
  end: number
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Every occurrence of the aspect in the text (case-insensitive, whole words where it starts or ends with one). */
export function findAspect (text: string, aspect: string): Span[] {
  const a = aspect.trim().replace(/\s+/g, ' ')
  if (a === '') return []
  const pattern = escape(a).replace(/ /g, '\\s+')
  const before = /^[\p{L}\p{N}]/u.test(a) ? '(?<![\\p{L}\\p{N}])' : ''
  const after = /[\p{L}\p{N}]$/u.test(a) ? '(?![\\p{L}\\p{N}])' : ''
  const re = new RegExp(before + pattern + after, 'giu')
  return [...text.matchAll(re)].map(m => ({ start: m.index, end: m.index + m[0].length }))
}

const words = (s: string) => (s.match(WORD) ?? []).map(w => w.toLowerCase())

/** The classifier's input for the aspect at span in text. */
export function aspectInput (text: string, span: Span): string {
  let from = 0
  let to = text.length
  for (const m of text.matchAll(BREAK)) {
    if (m.index + m[0].length <= span.start) from = m.index + m[0].length
    else if (m.index >= span.end) {
      to = m.index
      break
    }
  }
  const clause = words(text.slice(from, span.start)).concat(words(text.slice(span.end, to)))
  const left = words(text.slice(0, span.start)).slice(-WINDOW)
  const right = words(text.slice(span.end)).slice(0, WINDOW)
  const near = [...clause.map(w => 'c_' + w), ...left.map(w => 'l_' + w), ...right.map(w => 'r_' + w)]
  return [text, ...Array.from({ length: NEAR_REPEAT }, () => near).flat()].join(' ')
}
