// Data for the non-English sentiment and emotion heads (training/heads/languages.ts) and the language refiners.
// UMSAB tweets come from ../shared/datasets; XED subtitle lines are fetched from GitHub into
// training/data/xed/ (not committed; see training/DATA.md for the commit and how to fetch them).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { lines } from './data.js'

export interface LangRow {
  text: string
  label: string
  lang: string
}

export const UMSAB_LANGS: Record<string, string> = {
  ar: 'arabic',
  de: 'german',
  es: 'spanish',
  fr: 'french',
  hi: 'hindi',
  it: 'italian',
  pt: 'portuguese'
}
const UMSAB_LABELS = ['negative', 'neutral', 'positive']

/** UMSAB train or val rows of one language (labels 0 1 2 = negative neutral positive) */
export function umsab (lang: string, split: 'train' | 'val'): LangRow[] {
  const dir = `sentiment/umsab-multilingual/${UMSAB_LANGS[lang]}`
  const texts = lines(`${dir}/${split}_text.txt`)
  const labels = lines(`${dir}/${split}_labels.txt`)
  if (texts.length !== labels.length) throw new Error(`${dir} ${split}: ${texts.length} texts, ${labels.length} labels`)
  return texts.map((text, i) => ({ text, label: UMSAB_LABELS[Number(labels[i])] as string, lang }))
}

export const XED_DIR = join(import.meta.dirname, '..', 'data', 'xed')
/** XED's Plutchik labels, 1-8 in alphabetical order */
const PLUTCHIK = ['', 'anger', 'anticipation', 'disgust', 'fear', 'joy', 'sadness', 'surprise', 'trust']
/** Plutchik -> the contract's emotions (Bored has no source in XED) */
export const XED_EMOTION: Record<string, string> = {
  anger: 'Angry',
  disgust: 'Angry',
  fear: 'Fear',
  joy: 'Happy',
  trust: 'Happy',
  sadness: 'Sad',
  anticipation: 'Excited',
  surprise: 'Excited'
}
/** Plutchik -> polarity, for the Dutch sentiment rows (anticipation and surprise have none) */
export const XED_POLARITY: Record<string, string> = {
  anger: 'negative',
  disgust: 'negative',
  fear: 'negative',
  sadness: 'negative',
  joy: 'positive',
  trust: 'positive'
}

/** XED projected lines of a language: the text and its Plutchik labels */
export function xed (lang: string): Array<{ text: string; emotions: string[] }> {
  const file = join(XED_DIR, `${lang}-projections.tsv`)
  if (!existsSync(file)) throw new Error(`missing ${file}: fetch Helsinki-NLP/XED (training/DATA.md)`)
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(l => l.includes('\t'))
    .map(l => {
      const [text, labels] = l.split('\t') as [string, string]
      return {
        text: text.trim(),
        emotions: labels
          .split(',')
          .map(x => PLUTCHIK[Number(x.trim())])
          .filter((x): x is string => x !== undefined && x !== '')
      }
    })
}

/** A fixed 85/15 split by a hash of a text (FNV-1a): the same text always lands on the same side. */
export function isValidation (text: string): boolean {
  let h = 2166136261
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619)
  return (h >>> 0) % 100 < 15
}

/**
 * The languages whose XED lines the split is drawn over (the emotion model's; the sentiment model's Dutch rows
 * use the same split).
 */
export const XED_SPLIT_LANGS = ['es', 'de', 'fr', 'it', 'pt', 'nl']
export const XED_PAIRS_DIR = join(import.meta.dirname, '..', 'data', 'xed-pairs')

/** The English subtitle line(s) each line of a language was aligned to (XED's subtitle-retrieval pairs files). */
function englishSources (lang: string): Map<string, string[]> {
  const file = join(XED_PAIRS_DIR, `pairs-${lang}.txt`)
  if (!existsSync(file)) throw new Error(`missing ${file}: fetch Helsinki-NLP/XED (training/DATA.md)`)
  const out = new Map<string, string[]>()
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const f = line.split('\t')
    if (f.length < 6) continue
    const text = (f[5] as string).trim()
    const sources = out.get(text) ?? []
    sources.push((f[4] as string).trim())
    out.set(text, sources)
  }
  return out
}

/**
 * XED's lines in different languages are translations of the same English lines and carry the same
 * projected labels, so a split by each line's own text leaves most validation lines' translations
 * in training (in another language): the split goes by the English source line instead. A line is
 * validation when one of its English sources hashes into the 15%; a training line that shares an
 * English source with a validation line of any of XED_SPLIT_LANGS is left out; a line missing from
 * the pairs files goes by its own text. Computed once.
 */
let splitCache: { val: Map<string, Set<string>>; dropped: Map<string, Set<string>> } | undefined
function xedSplit (): NonNullable<typeof splitCache> {
  if (splitCache !== undefined) return splitCache
  const langs = XED_SPLIT_LANGS.map(lang => ({
    lang,
    lines: xed(lang).map(r => r.text),
    sources: englishSources(lang)
  }))
  const val = new Map<string, Set<string>>()
  const held = new Set<string>()
  for (const { lang, lines, sources } of langs) {
    const v = new Set<string>()
    for (const text of lines) {
      const src = sources.get(text)
      if (src === undefined ? isValidation(text) : src.some(isValidation)) {
        v.add(text)
        for (const s of src ?? []) held.add(s)
      }
    }
    val.set(lang, v)
  }
  const dropped = new Map<string, Set<string>>()
  for (const { lang, lines, sources } of langs) {
    const v = val.get(lang) as Set<string>
    dropped.set(lang, new Set(lines.filter(t => !v.has(t) && (sources.get(t) ?? []).some(s => held.has(s)))))
  }
  splitCache = { val, dropped }
  return splitCache
}

/** XED lines of a language on one side of the split (text only, labels or not): the training side
 * leaves out the lines that share an English source with a validation line, as xedRows does. */
export function xedTexts (lang: string, split: 'train' | 'val'): string[] {
  const { val, dropped } = xedSplit()
  const v = val.get(lang)
  const d = dropped.get(lang)
  if (v === undefined || d === undefined) {
    throw new Error(`XED ${lang} is not one of the split's languages (${XED_SPLIT_LANGS.join(', ')})`)
  }
  return [...new Set(xed(lang).map(r => r.text))].filter(t => v.has(t) === (split === 'val') && !d.has(t))
}

/** The English source lines of every XED validation line (pairs files): English text that must not
 * train a model whose validation reads those lines' translations. */
export function xedHeldEnglish (): Set<string> {
  const { val } = xedSplit()
  const held = new Set<string>()
  for (const lang of XED_SPLIT_LANGS) {
    const sources = englishSources(lang)
    for (const t of val.get(lang) ?? []) for (const s of sources.get(t) ?? []) held.add(s)
  }
  return held
}

/** XED rows mapped by `map`: a line whose labels map to one value is one row; training rows also
 * take lines with several values (one row per value), validation rows only single-valued lines. */
export function xedRows (lang: string, map: Record<string, string>, split: 'train' | 'val'): LangRow[] {
  const { val, dropped } = xedSplit()
  const v = val.get(lang)
  const d = dropped.get(lang)
  if (v === undefined || d === undefined) {
    throw new Error(`XED ${lang} is not one of the split's languages (${XED_SPLIT_LANGS.join(', ')})`)
  }
  const out: LangRow[] = []
  for (const { text, emotions } of xed(lang)) {
    if (v.has(text) !== (split === 'val') || d.has(text)) continue
    const labels = [...new Set(emotions.map(e => map[e]).filter((x): x is string => x !== undefined))]
    if (labels.length === 0 || (split === 'val' && labels.length > 1)) continue
    for (const label of labels) out.push({ text, label, lang })
  }
  return out
}

export const SENTIMIX_DIR = join(import.meta.dirname, '..', 'data', 'sentimix')
/** SemEval-2020 task 9 (SentiMix) Hindi-English tweets, one token per line (training/DATA.md), rejoined into text. */
export function sentimix (split: 'train' | 'dev'): LangRow[] {
  const file = join(
    SENTIMIX_DIR,
    split === 'train' ? 'Hinglish_train_14k_split_conll.txt' : 'Hinglish_dev_3k_split_conll.txt'
  )
  if (!existsSync(file)) throw new Error(`missing ${file}: fetch the SentiMix files (training/DATA.md)`)
  const out: LangRow[] = []
  let label = ''
  let tokens: string[] = []
  const flush = () => {
    if (label !== '' && tokens.length > 0) {
      // the tokeniser split "@name", "#tag" and addresses apart: joined again
      const text = tokens
        .join(' ')
        .replace(/([@#]) (\S+)/g, '$1$2')
        .replace(/https? \/\/ \S+(?: [./] \S+){0,4}/g, 'http')
      out.push({ text, label, lang: 'hi' })
    }
    label = ''
    tokens = []
  }
  for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
    if (line.startsWith('meta\t')) {
      flush()
      label = (line.split('\t')[2] ?? '').trim()
      continue
    }
    if (line.trim() !== '') tokens.push(line.split('\t')[0] as string)
  }
  flush()
  return out
}
