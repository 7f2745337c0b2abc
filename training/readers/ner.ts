// Readers for the NER corpora in ../shared/datasets/ner, all turned into sentences of tokens with
// BIOES labels over PER/ORG/LOC/MISC (indexes into LABELS of lib/text/ner/labels.ts): the corpora's
// IOB2 tags with each entity's end marked (withEnds). Changes to the sentences (re-cut by the
// service's tokeniser, case copies, mention replacement) are in ner-transforms.ts.
import { readFileSync } from 'node:fs'
import { fetched, need } from './data.js'
import { LABELS, withEnds } from '../../lib/text/ner/labels.js'

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

/**
 * Europeana newspapers: OCR'd historical German/Dutch, no sentence breaks; a few typos in tags ("B-BER", "I-PEr")
 * and lines without one.
 */
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

/**
 * GermEval dev by its sources (in order of first appearance): every fifth source is the validation part
 * of a model that trains on the other four in five (the encoder's NER head: training/encoder/ner_corpora.py).
 */
export function germevalPart (heldOut: boolean): Sentence[] {
  const sources = germevalDevSources()
  const order = new Map<string, number>()
  for (const s of sources) if (!order.has(s)) order.set(s, order.size)
  return germevalDev().filter((_, i) => ((order.get(sources[i] as string) as number) % 5 === 4) === heldOut)
}
