// Tokens and hashed token features of the NER tagger, shared by training (training/recipes/ner.ts) and
// serving (lib/text/ner/tagger.ts) so that both see exactly the same feature ids. Every token gets the same
// number of features (FEATURES), one per template, so a text's features form a dense
// [tokens, FEATURES] id matrix; the served model sums those rows of its emission table into label
// scores.

export interface Token {
  text: string
  start: number
  end: number
}

// Close to the CoNLL tokenisations the model learns from: initials ("J.") and common abbreviations
// ("Corp.", "bzw.") with their full stop, initialisms ("U.S.") whole, day and list numbers ("18.")
// with theirs, words with inner hyphens ("Merkel-Regierung") and name apostrophes ("O'Neill") whole,
// a dangling compound hyphen ("Mecklenburg- Vorpommern") kept, English clitics ("'s") apart,
// numbers with their separators, runs of dashes or dots together, and every other non-space code
// point alone (an emoji's surrogate pair stays one token, so offsets never split a character).
const ABBREVIATIONS =
  'Mr|Mrs|Ms|Dr|Prof|St|Jr|Sr|Sra|Co|Corp|Inc|Ltd|Bros|Gen|Gov|Sen|Rep|Lt|Col|Sgt|Capt|Mt|Ft|Jan|Feb|Aug|' +
  'Sept|Sep|Oct|Nov|Dec|vs|bzw|ca|ggf|usw|evtl|Nr|Str|Hr|Fr|dr|Avda|Av|Sta|Sto|dhr|mevr|drs|ir|ing|blz|nr|etc'
const tokenRe = (lang: string) =>
  new RegExp(
    [
      `(?:${ABBREVIATIONS})\\.(?![\\p{L}\\p{N}])`,
      '(?:\\p{L}\\.){2,}',
      '\\p{Lu}\\.(?=\\s)',
      '\\p{N}{1,2}\\.(?=\\s+\\S)',
      '\\p{N}+(?:[.,:/-]\\p{N}+)+(?![\\p{L}\\p{N}])',
      '[\\p{L}\\p{N}][\\p{L}\\p{M}\\p{N}]*' +
        "(?:(?:['’](?=\\p{Lu})|[-&](?=[\\p{L}\\p{N}]))[\\p{L}\\p{M}\\p{N}]+)*(?:-(?=\\s))?" +
        (lang === 'nl' ? "(?:['’]\\p{Ll}{1,2}(?![\\p{L}\\p{N}]))?" : ''),
      "['’](?:s|S|re|ve|ll|d|m|t)(?![\\p{L}\\p{N}])",
      '-{2,}|\\.{2,}',
      '\\S'
    ].join('|'),
    'gu'
  )
// Dutch keeps "'s" and "'n" on their word (auto's, Israëli's, zo'n), English splits them off
const TOKEN_RE = tokenRe('en')
const TOKEN_RE_NL = tokenRe('nl')

/** Tokens with UTF-16 offsets into `text`, reading at most `maxChars` of it (no token crosses the cut). */
export function tokenize (text: string, maxChars = Infinity, lang = 'en'): Token[] {
  const s = text.length > maxChars ? text.slice(0, maxChars) : text
  const out: Token[] = []
  for (const m of s.matchAll(lang === 'nl' ? TOKEN_RE_NL : TOKEN_RE)) {
    const start = m.index
    const end = start + m[0].length
    // a token touching the cut may be a fragment (or half a surrogate pair): leave it out
    if (s.length < text.length && end === s.length) break
    out.push({ text: m[0], start, end })
  }
  return out
}

// FNV-1a over a template number and strings, without building the strings
const OFFSET = 2166136261
const PRIME = 16777619
function mix (h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), PRIME)
  return Math.imul(h ^ 0x1f, PRIME)
}
const seedOf = (t: number) => Math.imul(OFFSET ^ (t + 1), PRIME)

/** Xxxx -> "Xx", 1996 -> "d", U.S. -> "X.X." (runs of one class collapsed) */
export function shape (w: string): string {
  let out = ''
  let last = ''
  for (const ch of w) {
    const c = /\p{Lu}/u.test(ch) ? 'X' : /\p{L}/u.test(ch) ? 'x' : /\p{N}/u.test(ch) ? 'd' : ch
    if (c !== last) out += c
    last = c
  }
  return out
}

/** the long shape: every character's class, at most 6 ("Xxxxxx" for "London") */
function longShape (w: string): string {
  let out = ''
  for (const ch of w) {
    out += /\p{Lu}/u.test(ch) ? 'X' : /\p{L}/u.test(ch) ? 'x' : /\p{N}/u.test(ch) ? 'd' : ch
    if (out.length >= 6) break
  }
  return out
}

const norm = (w: string) => w.toLowerCase().replace(/\p{N}/gu, '0')

interface Tok {
  w: string
  low: string
  sh: string
  cap: string
  long?: string
}
const PAD_L: Tok = { w: '<s>', low: '<s>', sh: '<s>', cap: '<s>' }
const PAD_R: Tok = { w: '</s>', low: '</s>', sh: '</s>', cap: '</s>' }

/**
 * a coarse capitalisation class: sentence-initial capitals mean little in English, all nouns are capitalised in
 * German
 */
function capClass (w: string): string {
  if (!/\p{L}/u.test(w)) return /\p{N}/u.test(w) ? 'num' : 'punct'
  if (w === w.toUpperCase() && w.length > 1) return 'upper'
  if (/^\p{Lu}/u.test(w)) return 'title'
  if (/\p{Lu}/u.test(w)) return 'mixed'
  return 'lower'
}

// word descriptions repeat (Zipf): cached, and the cache dropped whole when it grows large
const described = new Map<string, Tok & { long: string }>()
function describe (w: string): Tok & { long: string } {
  let d = described.get(w)
  if (d === undefined) {
    if (described.size > 200_000) described.clear()
    d = { w, low: norm(w), sh: shape(w), cap: capClass(w), long: longShape(w) }
    described.set(w, d)
  }
  return d
}

export const FEATURES = 42

/** 32-bit FNV-1a of a word, as NounForms stores it */
export const wordHash = (w: string): number => mix(OFFSET, w) >>> 0

/**
 * German capitalises every noun, so a capital says little there; a list of German common-noun forms
 * says more: a capitalised word that is neither such a form nor ends in one (a compound's last part,
 * "Terror|anschlag") is likely a name. Held as the sorted hashes of the forms (the model stores them
 * so, and training uses the same table, so both see the same classes).
 */
export class NounForms {
  private readonly cache = new Map<string, string>()
  /**
   * `hashes`: wordHash of every form, ascending, no repeats. `names`: the same for one-word names
   * from name lists (first names, surnames, places), which add their marks to a word's class.
   */
  constructor (
    readonly hashes: Uint32Array,
    readonly names?: Names,
    readonly caseless = false
  ) {}

  static of (forms: Iterable<string>, names?: NameLists<Iterable<string>>, caseless = false): NounForms {
    return new NounForms(
      hashSet(forms),
      names === undefined
        ? undefined
        : { first: hashSet(names.first), last: hashSet(names.last), place: hashSet(names.place) },
      caseless
    )
  }

  has (w: string): boolean {
    return hasHash(this.hashes, wordHash(w))
  }

  /**
   * 'n' a noun form, 'c' ends in a capitalised noun form of 4+ letters (a compound), 'o' neither;
   * then, with name lists, F if it is a listed first name, L a surname, P a place. A caseless list
   * (English: words mostly written in lower case, lowerCaseWords in training/trainers/ner-lexicon.ts) is
   * looked up by the lower-cased word, and the names by the word and its capitalised form.
   */
  classOf (w: string): string {
    let c = this.cache.get(w)
    if (c === undefined) {
      if (this.cache.size > 200_000) this.cache.clear()
      c = 'o'
      if (this.caseless) {
        if (this.has(w.toLowerCase())) c = 'n'
      } else if (this.has(w)) c = 'n'
      else if (/^\p{Lu}\p{Ll}/u.test(w)) {
        for (let k = 2; k <= w.length - 4; k++) {
          const tail = w.slice(k)
          if (this.has(tail.charAt(0).toUpperCase() + tail.slice(1))) {
            c = 'c'
            break
          }
        }
      }
      if (this.names !== undefined) {
        const h = wordHash(w)
        const h2 = this.caseless ? wordHash(w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()) : h
        if (hasHash(this.names.first, h) || hasHash(this.names.first, h2)) c += 'F'
        if (hasHash(this.names.last, h) || hasHash(this.names.last, h2)) c += 'L'
        if (hasHash(this.names.place, h) || hasHash(this.names.place, h2)) c += 'P'
      }
      this.cache.set(w, c)
    }
    return c
  }
}

export const NAME_KINDS = ['first', 'last', 'place'] as const
export type NameLists<T> = Record<(typeof NAME_KINDS)[number], T>
export type Names = NameLists<Uint32Array>

/** the words' hashes, ascending, no repeats */
function hashSet (words: Iterable<string>): Uint32Array {
  const set = new Set<number>()
  for (const w of words) set.add(wordHash(w))
  return Uint32Array.from(set).sort()
}

function hasHash (sorted: Uint32Array, h: number): boolean {
  let lo = 0
  let hi = sorted.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const v = sorted[mid] as number
    if (v === h) return true
    if (v < h) lo = mid + 1
    else hi = mid - 1
  }
  return false
}

/**
 * The lexicon: what each (hashed, lower-cased) word was in the training data, as one byte:
 * 0 unknown (seen fewer than LEXICON_MIN times), else 1 + its most frequent type (O, PER, ORG, LOC,
 * MISC). Trained with a lexicon built without the sentence's own tenth of the data (jackknifed), so
 * the model learns how far to trust it on words it has not memorised.
 */
export const LEXICON_SIZE = 1 << 18
export const LEXICON_MIN = 2
export const lexiconKey = (low: string): number => wordHash(low) & (LEXICON_SIZE - 1)
export const lowerForm = (w: string): string => describe(w).low

/** Hashed feature ids of every token, token-major: ids[i * FEATURES + f] in [0, buckets). */
export function featurise (words: string[], buckets: number, lexicon?: Uint8Array, nouns?: NounForms): Int32Array {
  const n = words.length
  const ids = new Int32Array(n * FEATURES)
  const toks = words.map(describe)
  const lex = (t: Tok): string =>
    lexicon === undefined || t === PAD_L || t === PAD_R ? '-' : String(lexicon[lexiconKey(t.low)])
  const noun = (t: Tok): string => (nouns === undefined || t === PAD_L || t === PAD_R ? '-' : nouns.classOf(t.w))
  const at = (i: number): Tok => (i < 0 ? PAD_L : i >= n ? PAD_R : (toks[i] as Tok))
  const mask = buckets - 1
  for (let i = 0; i < n; i++) {
    const t = toks[i] as Tok & { long: string }
    const p1 = at(i - 1)
    const p2 = at(i - 2)
    const n1 = at(i + 1)
    const n2 = at(i + 2)
    const low = t.low
    const o = i * FEATURES
    let f = 0
    const put = (h: number) => {
      ids[o + f] = (h >>> 0) & mask
      f++
    }
    // where the token stands: first, after a sentence-like break, or inside
    const pos = i === 0 ? 'first' : p1.w === '.' || p1.w === ':' || p1.w === '"' ? 'after' : 'mid'
    const h1 = (a: string) => mix(seedOf(f), a)
    const h2 = (a: string, b: string) => mix(mix(seedOf(f), a), b)
    const h3 = (a: string, b: string, c: string) => mix(mix(mix(seedOf(f), a), b), c)
    put(seedOf(f)) // bias
    put(h1(low))
    put(h1(t.w))
    put(h1(p1.low))
    put(h1(n1.low))
    put(h1(p2.low))
    put(h1(n2.low))
    put(h2(p1.low, low))
    put(h2(low, n1.low))
    put(h2(p2.low, p1.low))
    put(h2(n1.low, n2.low))
    put(h1(t.sh))
    put(h1(t.long))
    put(h3(p1.sh, t.sh, n1.sh))
    put(h1(p1.sh))
    put(h1(n1.sh))
    put(h2(p2.sh, p1.sh))
    put(h2(n1.sh, n2.sh))
    for (let k = 1; k <= 4; k++) put(h1(low.slice(0, k)))
    for (let k = 1; k <= 5; k++) put(h1(low.length > k ? low.slice(-k) : low))
    put(h2(pos, t.cap))
    put(h2(p1.cap, t.cap))
    put(h2(t.cap, n1.cap))
    put(h2(p1.low, t.cap))
    put(h2(n1.low, t.cap))
    put(h3(p1.cap, t.cap, n1.cap))
    put(h2(p1.w, t.sh))
    put(h1(String(Math.min(low.length, 12))))
    put(h2(lex(t), t.cap))
    put(h2(lex(p1), lex(t)))
    put(h2(lex(t), lex(n1)))
    // the noun-form class ('-' for every word of a language without a noun list)
    put(h2(noun(t), t.cap))
    put(h3(noun(p1), noun(t), noun(n1)))
    put(h3(pos, t.cap, noun(t)))
    put(h2(noun(t), lex(t)))
    if (f !== FEATURES) throw new Error(`feature templates ${f} != ${FEATURES}`)
  }
  return ids
}
