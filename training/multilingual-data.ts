// Data for the non-English sentiment and emotion models (training/multilingual.ts).
// UMSAB tweets come from ../shared/datasets; XED subtitle lines are fetched from GitHub into
// training/data/xed/ (not committed; see training/DATA.md for the commit and how to fetch them).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { lines } from './data.js'

export interface LangRow { text: string, label: string, lang: string }

export const UMSAB_LANGS: Record<string, string> = { ar: 'arabic', de: 'german', es: 'spanish', fr: 'french', hi: 'hindi', it: 'italian', pt: 'portuguese' }
const UMSAB_LABELS = ['negative', 'neutral', 'positive']

/** UMSAB train or val rows of one language (labels 0 1 2 = negative neutral positive) */
export function umsab (lang: string, split: 'train' | 'val'): LangRow[] {
  const dir = `sentiment/umsab-multilingual/${UMSAB_LANGS[lang]}`
  const texts = lines(`${dir}/${split}_text.txt`)
  const labels = lines(`${dir}/${split}_labels.txt`)
  if (texts.length !== labels.length) throw new Error(`${dir} ${split}: ${texts.length} texts, ${labels.length} labels`)
  return texts.map((text, i) => ({ text, label: UMSAB_LABELS[Number(labels[i])] as string, lang }))
}

export const XED_DIR = join(import.meta.dirname, 'data', 'xed')
/** XED's Plutchik labels, 1-8 in alphabetical order */
const PLUTCHIK = ['', 'anger', 'anticipation', 'disgust', 'fear', 'joy', 'sadness', 'surprise', 'trust']
/** Plutchik -> the contract's emotions (Bored has no source in XED) */
export const XED_EMOTION: Record<string, string> = { anger: 'Angry', disgust: 'Angry', fear: 'Fear', joy: 'Happy', trust: 'Happy', sadness: 'Sad', anticipation: 'Excited', surprise: 'Excited' }
/** Plutchik -> polarity, for the Dutch sentiment rows (anticipation and surprise have none) */
export const XED_POLARITY: Record<string, string> = { anger: 'negative', disgust: 'negative', fear: 'negative', sadness: 'negative', joy: 'positive', trust: 'positive' }

/** XED projected lines of a language: the text and its Plutchik labels */
export function xed (lang: string): Array<{ text: string, emotions: string[] }> {
  const file = join(XED_DIR, `${lang}-projections.tsv`)
  if (!existsSync(file)) throw new Error(`missing ${file}: fetch Helsinki-NLP/XED (training/DATA.md)`)
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('\t')).map((l) => {
    const [text, labels] = l.split('\t') as [string, string]
    return { text: text.trim(), emotions: labels.split(',').map((x) => PLUTCHIK[Number(x.trim())]).filter((x): x is string => x !== undefined && x !== '') }
  })
}

/** A fixed 85/15 split by a hash of the text (XED has no splits); the same text always lands on the same side. */
export function isValidation (text: string): boolean {
  let h = 2166136261
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619)
  return ((h >>> 0) % 100) < 15
}

/** XED rows mapped by `map`: a line whose labels map to one value is one row; training rows also
 * take lines with several values (one row per value), validation rows only single-valued lines. */
export function xedRows (lang: string, map: Record<string, string>, split: 'train' | 'val'): LangRow[] {
  const out: LangRow[] = []
  for (const { text, emotions } of xed(lang)) {
    if (isValidation(text) !== (split === 'val')) continue
    const labels = [...new Set(emotions.map((e) => map[e]).filter((x): x is string => x !== undefined))]
    if (labels.length === 0 || (split === 'val' && labels.length > 1)) continue
    for (const label of labels) out.push({ text, label, lang })
  }
  return out
}
