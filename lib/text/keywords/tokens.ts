// The keyword extractor's tokens: wink-nlp's English pipeline with its part-of-speech tags and
// Porter2 stems, hyphenated compounds and dotted names re-joined into one token, and a line number
// per token. Phrases are compared by their stems (phraseKey), the way keyphrase benchmarks score them.
import winkNLP from 'wink-nlp'
import winkModel from 'wink-eng-lite-web-model'

type Nlp = ReturnType<typeof winkNLP>
let nlp: Nlp | undefined
// the model's Porter2 stemmer, as wink-nlp's its.stem applies it to a token's text, with the stems
// of words seen lately kept (most words of a text, and of a batch, repeat)
const porter = (winkModel as unknown as { addons: { stem: (word: string) => string } }).addons.stem
const stems = new Map<string, string>()
const STEMS_KEPT = 50_000
function stem (word: string): string {
  let s = stems.get(word)
  if (s !== undefined) return s
  s = porter(word).toLowerCase()
  if (stems.size >= STEMS_KEPT) stems.clear()
  stems.set(word, s)
  return s
}
/** The wink-nlp English pipeline, loaded once per process (about 100 ms): sentence breaks and
 * part-of-speech tags only; its entity, negation and sentiment steps, which nothing here reads,
 * cost a third of a text's analysis. */
export function getNlp (): Nlp {
  nlp ??= winkNLP(winkModel, ['sbd', 'pos'])
  return nlp
}

export interface Token {
  /** surface text */
  text: string
  pos: string
  /** one stem per word part ("state-of-the-art" has four) */
  stems: string[]
  sentence: number
  sentenceStart: boolean
  stop: boolean
  /** line of the text (a first line is often a title) */
  line: number
}

const CONTENT = new Set(['NOUN', 'PROPN', 'ADJ'])
export const HEAD = new Set(['NOUN', 'PROPN'])
const WORDLIKE = /[\p{L}]/u
// the parts of a dotted name: two or more letters each
const DOTTED = /^\p{L}{2,}$/u

/** Tokens with hyphenated compounds re-joined (wink splits "separate-account" in three). */
export function tokenise (text: string): Token[] {
  const n = getNlp()
  const its = n.its
  const doc = n.readDoc(text)
  const words = doc.tokens().out() as string[]
  const pos = doc.tokens().out(its.pos) as string[]
  const spaces = doc.tokens().out(its.precedingSpaces) as string[]
  const stopFlags = doc.tokens().out(its.stopWordFlag) as unknown as boolean[]
  const sentOf = new Int32Array(words.length)
  const spans = doc.sentences().out(its.span) as unknown as Array<[number, number]>
  spans.forEach(([a, b], s) => {
    for (let i = a; i <= b && i < words.length; i++) sentOf[i] = s
  })
  const out: Token[] = []
  let line = 0
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string
    const p = pos[i] as string
    if ((spaces[i] as string).includes('\n')) line++
    if (p === 'SPACE') {
      if (w.includes('\n')) line++
      continue
    }
    const prev = out[out.length - 1]
    const glued =
      w === '-' &&
      prev !== undefined &&
      spaces[i] === '' &&
      spaces[i + 1] === '' &&
      i + 1 < words.length &&
      WORDLIKE.test(prev.text) &&
      WORDLIKE.test(words[i + 1] as string) &&
      sentOf[i + 1] === prev.sentence
    if (glued) {
      const next = words[i + 1] as string
      const np = pos[i + 1] as string
      prev.text += '-' + next
      prev.stems.push(stem(next))
      // "Web-based", "model-driven": a compound ending in a participle describes the next noun
      prev.pos = np === 'VERB' ? 'ADJ' : np === 'ADJ' || HEAD.has(np) ? np : prev.pos
      prev.stop = false
      i++
      continue
    }
    // a name with an inner dot ("Bol.com"), which wink-nlp cuts in three, even across a sentence break it guesses
    const dotted =
      w === '.' &&
      prev !== undefined &&
      spaces[i] === '' &&
      spaces[i + 1] === '' &&
      i + 1 < words.length &&
      DOTTED.test(prev.text) &&
      DOTTED.test(words[i + 1] as string)
    if (dotted) {
      prev.text += '.' + (words[i + 1] as string)
      prev.stems.push(stem(words[i + 1] as string))
      prev.pos = 'PROPN'
      prev.stop = false
      i++
      continue
    }
    const sentence = sentOf[i] as number
    out.push({
      text: w,
      pos: p === 'VERB' && /^[a-z]/.test(w) ? (/ed$/.test(w) ? 'VBN' : /ing$/.test(w) ? 'VBG' : p) : p,
      stems: [stem(w)],
      sentence,
      sentenceStart: prev === undefined || prev.sentence !== sentence,
      stop: stopFlags[i] === true,
      line
    })
  }
  return out
}

/** A content word long enough to stand in a phrase. */
export function usable (t: Token): boolean {
  return CONTENT.has(t.pos) && !t.stop && t.text.length > 1 && WORDLIKE.test(t.text)
}

/** The stem key of any phrase (gold keyphrases go through here too): stems of its words, spaced. */
export function phraseKey (phrase: string): string {
  return tokenise(phrase)
    .filter(t => WORDLIKE.test(t.text) || /\d/.test(t.text))
    .flatMap(t => t.stems)
    .join(' ')
}
