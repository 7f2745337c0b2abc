// Readers for the NER corpora in ../shared/datasets/ner, all turned into sentences of tokens with
// BIOES labels over PER/ORG/LOC/MISC (indexes into LABELS of lib/text/ner/labels.ts): the corpora's
// IOB2 tags with each entity's end marked (withEnds).
import { readFileSync } from 'node:fs'
import { fetched, need } from './data.js'
import { tokenize, type Token } from '../../lib/text/ner/features.js'
import { LABELS, NUM_LABELS, isBegin, labelOf, typeOf, withEnds, withoutEnds } from '../../lib/text/ner/labels.js'
import { viterbi, type Scratch } from '../../lib/text/ner/decode.js'

export interface Sentence {
  words: string[]
  labels: Uint8Array
}

const INDEX = new Map<string, number>(LABELS.map((l, i) => [l, i]))

/**
 * Tags to IOB2 label indexes (B and I only; the readers then mark the ends, withEnds). CoNLL-2003 is
 * IOB1 (I- opens an entity, B- only between two of one type), so an I- that does not continue an
 * entity of its type becomes B-. `map` renames or drops (null: O) a corpus's own types.
 */
export function toLabels (tags: string[], map: (type: string) => string | null = t => t): Uint8Array {
  const out = new Uint8Array(tags.length)
  let prevType: string | null = null
  for (let i = 0; i < tags.length; i++) {
    const tag = tags[i] as string
    const m = /^([BI])-(.+)$/.exec(tag)
    const type = m === null ? null : map(m[2] as string)
    if (m === null || type === null) {
      prevType = null
      continue
    }
    const begin = m[1] === 'B' || prevType !== type
    const idx = INDEX.get(`${begin ? 'B' : 'I'}-${type}`)
    if (idx === undefined) throw new Error(`unknown tag ${tag}`)
    out[i] = idx
    prevType = type
  }
  return out
}

/** Column files: one token per line (token first, tag in column `tagCol`), blank lines between sentences. */
function columns (
  path: string,
  opts: {
    nounCol?: (f: string[]) => boolean
    sep: RegExp
    wordCol: number
    tagCol: (f: string[]) => string
    encoding?: BufferEncoding
    skip?: (line: string) => boolean
    map?: (t: string) => string | null
    splitAt?: (w: string, length: number) => boolean
  }
): Sentence[] {
  const text = readFileSync(need(path), opts.encoding ?? 'utf8')
  const out: Sentence[] = []
  let words: string[] = []
  let tags: string[] = []
  const flush = () => {
    if (words.length > 0) out.push({ words, labels: withEnds(toLabels(tags, opts.map)) })
    words = []
    tags = []
  }
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trimEnd()
    if (line.trim() === '') {
      flush()
      continue
    }
    if (opts.skip?.(line) === true) continue
    const f = line.split(opts.sep)
    const w = f[opts.wordCol]
    if (w === undefined || w === '') continue
    if (w === '-DOCSTART-') {
      flush()
      continue
    }
    words.push(opts.nounCol?.(f) === true ? w.charAt(0).toUpperCase() + w.slice(1) : w)
    tags.push(opts.tagCol(f))
    // corpora without sentence breaks (Europeana) are cut after full stops, and long OCR runs without them
    // after a comma or at 80 tokens
    if (opts.splitAt?.(w, words.length) === true) flush()
  }
  flush()
  return out
}

const last = (f: string[]) => f[f.length - 1] as string

/**
 * German capitalises every noun, so a German tagger trained on other languages' sentences learns that
 * a capital letter mid-sentence means a name. `germanise` capitalises their common nouns (by the
 * corpora's own part-of-speech column) so that they show German orthography, entities unchanged.
 */
export interface ReadOpts {
  germanise?: boolean
}

export const conll2003 = (file: 'eng.train' | 'eng.testa', o: ReadOpts = {}) =>
  columns(`ner/conll2003-en/${file}`, {
    sep: / /,
    wordCol: 0,
    tagCol: last,
    ...(o.germanise === true ? { nounCol: (f: string[]) => f[1] === 'NN' || f[1] === 'NNS' } : {})
  })

export const conll2002 = (file: 'esp.train' | 'esp.testa' | 'ned.train' | 'ned.testa', o: ReadOpts = {}) =>
  columns(`ner/conll2002-es-nl/${file}`, {
    sep: / /,
    wordCol: 0,
    tagCol: last,
    ...(o.germanise === true ? { nounCol: (f: string[]) => f.length === 3 && (f[1] === 'N' || f[1] === 'NC') } : {})
  })

export const wikiann = (file: 'train.conllu' | 'val.conllu') =>
  columns(`ner/wikiann-de-silver/${file}`, { sep: /\t/, wordCol: 1, tagCol: last })

/** Europeana newspapers: OCR'd historical German/Dutch, no sentence breaks; a few typos in tags ("B-BER", "I-PEr") and lines without one. */
export const europeana = (file: 'enp_DE.lft.bio' | 'enp_DE.onb.bio' | 'enp_DE.sbb.bio' | 'enp_NL.kb.bio') =>
  columns(`ner/europeana-newspapers-de-nl/${file}`, {
    sep: / /,
    wordCol: 0,
    tagCol: last,
    skip: l => !/ \S+$/.test(l),
    map: t => {
      const u = t.toUpperCase()
      return u === 'BER' ? 'PER' : ['PER', 'ORG', 'LOC', 'MISC'].includes(u) ? u : null
    },
    splitAt: (w, n) => w === '.' || w === '!' || w === '?' || (n >= 40 && (w === ',' || w === ';')) || n >= 80
  })

/**
 * Europeana's French newspapers (BnF: OCR of L'Ouest-Éclair, 1906; training/DATA.md), cut after full
 * stops or at 60 words as training/encoder/train_ner_head.py cuts them. Its .md lists each page's line
 * range: every fifth page is the validation part (`heldOut`), the others the encoder head's training data.
 */
export function europeanaFrench (heldOut: boolean): Sentence[] {
  const pages = [...fetched('europeana-fr/enp_FR.bnf.md').matchAll(/L(\d+) - L(\d+)/g)]
  const lines = fetched('europeana-fr/enp_FR.bnf.bio').split('\n')
  const out: Sentence[] = []
  pages.forEach((m, k) => {
    if ((k % 5 === 4) !== heldOut) return
    let words: string[] = []
    let tags: string[] = []
    const flush = (): void => {
      if (words.length > 0) out.push({ words, labels: withEnds(toLabels(tags)) })
      words = []
      tags = []
    }
    for (const line of lines.slice(Number(m[1]) - 1, Number(m[2]))) {
      const f = line.split(' ')
      if (f.length < 2) continue
      words.push(f[0] as string)
      tags.push(last(f))
      if (['.', '!', '?'].includes(f[0] as string) || words.length >= 60) flush()
    }
    flush()
  })
  return out
}

/**
 * WNUT-17 (social media: tweets, Reddit, YouTube and Stack Overflow comments): person as PER,
 * location as LOC, corporation and group (companies, bands, teams) as ORG, product and
 * creative-work as MISC (learned, never reported). Its test file is held out and never read.
 */
const WNUT_TYPES: Record<string, string> = {
  person: 'PER',
  location: 'LOC',
  corporation: 'ORG',
  group: 'ORG',
  product: 'MISC',
  'creative-work': 'MISC'
}
export const wnut17 = (file: 'wnut17train.conll' | 'emerging.dev.conll') =>
  columns(`ner/wnut17-emerging-entities/${file}`, {
    sep: /\t/,
    wordCol: 0,
    tagCol: f => f[1] ?? 'O',
    map: t => WNUT_TYPES[t] ?? null
  })

/**
 * Copies of a seeded share of the sentences in lower case (`lower`) and in capitals (`upper`),
 * labels unchanged: text on the web comes in every case, and a tagger that has seen only edited
 * text takes every capital for a name and misses every lower-case one.
 */
export function caseVariants (sents: Sentence[], lower: number, upper: number, random: () => number): Sentence[] {
  const out: Sentence[] = []
  for (const s of sents) {
    const r = random()
    if (r < lower) out.push({ words: s.words.map(w => w.toLowerCase()), labels: s.labels })
    else if (r < lower + upper) out.push({ words: s.words.map(w => w.toUpperCase()), labels: s.labels })
  }
  return out
}

/**
 * GermEval 2014 dev, outer level. PER/ORG/LOC are kept; derivations ("deutsche": LOCderiv) and
 * partial names ("Merkel-Regierung": PERpart) are not names of a person, organisation or place in
 * the sense of this API, so they become O; OTH is MISC. The German tagger trains on it, so it is
 * only ever scored cross-validated (training/recipes/ner.ts): a sentence by a model that did not see its fold.
 */
export const germevalDev = () =>
  columns('ner/germeval2014-de/NER-de-dev.tsv', {
    sep: /\t/,
    wordCol: 1,
    tagCol: f => f[2] as string,
    skip: l => l.startsWith('#\t') || l.startsWith('# '),
    map: t => (t === 'OTH' ? 'MISC' : /deriv|part/.test(t) ? null : t)
  })

/** the source (URL or "site vom date") of each GermEval dev sentence, in germevalDev's order: its "#" line */
export function germevalDevSources (): string[] {
  return readFileSync(need('ner/germeval2014-de/NER-de-dev.tsv'), 'utf8')
    .split(/\r?\n/)
    .filter(l => l.startsWith('#\t') || l.startsWith('# '))
    .map(l => (l.split('\t')[1] ?? '').trim())
}

/** The corpus's tokens joined by single spaces, with where each starts: a sentence as text. */
export function joinWords (words: string[]): { text: string; starts: number[] } {
  const starts: number[] = []
  let text = ''
  for (const w of words) {
    if (text.length > 0) text += ' '
    starts.push(text.length)
    text += w
  }
  return { text, starts }
}

/**
 * A sentence re-cut by the service's tokeniser, labels carried over: serving tags its own tokens,
 * so training on the corpus's (e.g. Spanish "Educación." standing for "Educación y", or "Corp."
 * where the service may differ) would teach patterns it never sees. A token's first piece keeps its
 * label, later pieces continue its entity, except trailing punctuation where the entity ends there.
 */
export function retokenize (sentence: Sentence, lang: string): Sentence {
  const s = { words: sentence.words, labels: withoutEnds(sentence.labels) }
  const { text, starts } = joinWords(s.words)
  const toks = tokenize(text, Infinity, lang)
  const words: string[] = []
  const labels: number[] = []
  let g = 0
  for (let k = 0; k < toks.length; k++) {
    const tok = toks[k] as Token
    while (g + 1 < starts.length && (starts[g + 1] as number) <= tok.start) g++
    const y = s.labels[g] as number
    const first = tok.start === starts[g]
    let label = y
    if (!first && y !== 0) {
      const next = toks[k + 1]
      const lastPiece = next === undefined || (g + 1 < starts.length && next.start >= (starts[g + 1] as number))
      const continues =
        g + 1 < s.words.length &&
        (s.labels[g + 1] as number) !== 0 &&
        !isBegin(s.labels[g + 1] as number) &&
        typeOf(s.labels[g + 1] as number) === typeOf(y)
      label = lastPiece && !continues && !/[\p{L}\p{N}]/u.test(tok.text) ? 0 : labelOf(typeOf(y), 1)
    }
    words.push(tok.text)
    labels.push(label)
  }
  return { words, labels: withEnds(labels) }
}

/**
 * WikiANN's silver labels come from Wikipedia links, so linked common nouns pass for names ("Zur
 * Saison 2013/14" as a place). A span is cleared (set to O) when its first word is, in gold-labelled
 * German text (`reference`), at least `minSeen` times seen and mostly (>= `share`) outside entities.
 */
export function clearCommonNouns (silver: Sentence[], reference: Sentence[], minSeen = 2, share = 0.8): Sentence[] {
  const seen = new Map<string, [number, number]>()
  for (const s of reference) {
    s.words.forEach((w, i) => {
      const c = seen.get(w) ?? [0, 0]
      c[s.labels[i] === 0 ? 0 : 1]++
      seen.set(w, c)
    })
  }
  const common = (w: string) => {
    const c = seen.get(w)
    return c !== undefined && c[0] + c[1] >= minSeen && c[0] >= share * (c[0] + c[1])
  }
  return silver.map(s => {
    const labels = Uint8Array.from(s.labels)
    for (let i = 0; i < labels.length; i++) {
      if (!isBegin(labels[i] as number) || !common(s.words[i] as string)) continue
      labels[i] = 0
      for (let j = i + 1; j < labels.length && labels[j] !== 0 && !isBegin(labels[j] as number); j++) labels[j] = 0
    }
    return { words: s.words, labels }
  })
}

/** the PER/ORG/LOC entity spans of `sents` by type index (0 PER, 1 ORG, 2 LOC), as word arrays */
export function mentions (sents: Sentence[]): string[][][] {
  const out: string[][][] = [[], [], []]
  for (const s of sents) {
    for (let t = 0; t < s.words.length; t++) {
      const y = s.labels[t] as number
      if (!isBegin(y) || typeOf(y) > 2) continue
      let e = t + 1
      while (e < s.words.length && (s.labels[e] as number) !== 0 && !isBegin(s.labels[e] as number)) e++
      out[typeOf(y)]!.push(s.words.slice(t, e))
    }
  }
  return out
}

/**
 * Mention replacement (Dai and Adel 2020): `copies` copies of every sentence that names a person,
 * organisation or place, each such name replaced by one of the same type drawn from `pool`
 * (mentions()), the rest of the sentence and its labels kept. The tagger sees the sentences'
 * contexts with names it has not seen there, so it learns the contexts rather than the names.
 * `from[i]` is the index in `sents` of the sentence copy i was made from.
 */
export function replaceMentions (
  sents: Sentence[],
  pool: string[][][],
  copies: number,
  random: () => number
): { sents: Sentence[]; from: number[] } {
  const out: Sentence[] = []
  const from: number[] = []
  sents.forEach((s, i) => {
    if (!s.labels.some(y => y !== 0 && typeOf(y) <= 2)) return
    for (let c = 0; c < copies; c++) {
      const words: string[] = []
      const labels: number[] = []
      for (let t = 0; t < s.words.length;) {
        const y = s.labels[t] as number
        let e = t + 1
        if (y !== 0) while (e < s.words.length && (s.labels[e] as number) !== 0 && !isBegin(s.labels[e] as number)) e++
        const type = typeOf(y)
        const choices = type >= 0 && type <= 2 ? (pool[type] as string[][]) : []
        if (isBegin(y) && choices.length > 0) {
          const m = choices[Math.floor(random() * choices.length)] as string[]
          m.forEach((w, k) => {
            words.push(w)
            labels.push(labelOf(type, k === 0 ? 0 : 1))
          })
        } else {
          for (let k = t; k < e; k++) {
            words.push(s.words[k] as string)
            labels.push(y === 0 ? 0 : labelOf(type, k === t ? 0 : 1))
          }
        }
        t = e
      }
      out.push({ words, labels: withEnds(labels) })
      from.push(i)
    }
  })
  return { sents: out, from }
}

/**
 * The truth of a partly labelled example (Encoded.free in ner-perceptron.ts) under emission scores E and transitions T:
 * the best-scoring label sequence that keeps every entity label and every O not marked free (the
 * latent-variable perceptron of learning from partial annotation). Writes into `out`.
 */
export function constrainedGold (
  E: Float32Array,
  T: Float32Array,
  labels: Uint8Array,
  free: Uint8Array,
  n: number,
  out: Uint8Array,
  work: Float32Array,
  sc: Scratch
): Uint8Array {
  for (let t = 0; t < n; t++) {
    const g = labels[t] as number
    const open = g === 0 && free[t] === 1
    for (let y = 0; y < NUM_LABELS; y++) {
      work[t * NUM_LABELS + y] = open || y === g ? (E[t * NUM_LABELS + y] as number) : -1e30
    }
  }
  return viterbi(work, T, n, out, sc)
}
