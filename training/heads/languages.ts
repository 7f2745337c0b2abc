// The rows in other languages that a head trains and is scored on beside its op's English ones
// (training/specs/ops.ts): the encoder reads every language, so one head serves them all, from these
// rows and from what the encoder carries across languages. Each language weighs as much as an
// average English domain.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { macroF1 } from '../trainers/scores.js'
import { umsab, UMSAB_LANGS, XED_EMOTION, XED_SPLIT_LANGS, xedRows } from '../readers/multilingual.js'
import type { Row, Validation } from '../specs/ops.js'

export interface LanguageData {
  languages: string[]
  train: Row[]
  validation: Validation[]
  sources: Array<{ name: string; path: string; licence: string; split?: string; rows?: number }>
}

const UMSAB_PATH = 'sentiment/umsab-multilingual'
const UMSAB_LICENCE = 'research use (tweets under the Twitter/X terms; XLM-T repository Apache-2.0)'

function sentiment (): LanguageData {
  const langs = Object.keys(UMSAB_LANGS)
  return {
    languages: langs,
    train: langs.flatMap(lang =>
      umsab(lang, 'train').map(r => ({
        text: r.text,
        label: r.label,
        domain: `umsab ${lang}`
      }))
    ),
    validation: langs.map(lang => ({
      name: `UMSAB ${lang}`,
      split: 'val',
      rows: umsab(lang, 'val'),
      metric: {
        name: 'macro-F1',
        score: (m: number[][]) => macroF1(m, [0, 1, 2]),
        baseline: 'target 0.65 (none under 0.55); XLM-T 0.53-0.70'
      }
    })),
    sources: [
      {
        name: 'UMSAB (XLM-T) tweets: ar de es fr hi it pt',
        path: UMSAB_PATH,
        licence: UMSAB_LICENCE,
        split: 'train (val for validation)',
        rows: langs.length * 1839
      }
    ]
  }
}

/** The project's own everyday texts in other languages (eval/data/everyday-languages.jsonl): never trained on. */
export interface EverydayLine {
  text: string
  lang: string
  domain: string
  sentiment: string
  emotion: string | null
}
export const EVERYDAY_LANGS = ['de', 'es', 'fr', 'nl']

export function everydayLanguages (): EverydayLine[] {
  const file = join(import.meta.dirname, '..', '..', 'eval', 'data', 'everyday-languages.jsonl')
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(l => l.trim() !== '')
    .map(l => JSON.parse(l) as EverydayLine)
}

const accuracy = (m: number[][]): number => {
  const total = m.flat().reduce((a, b) => a + b, 0)
  return m.reduce((a, row, i) => a + (row[i] as number), 0) / Math.max(1, total)
}

function everydaySentiment (): Validation[] {
  const lines = everydayLanguages()
  return EVERYDAY_LANGS.map(lang => ({
    name: `everyday texts in ${lang}, written by the project (eval/data/everyday-languages.jsonl; never trained on)`,
    split: 'all',
    rows: lines.filter(l => l.lang === lang).map(l => ({ text: l.text, label: l.sentiment })),
    metric: { name: 'accuracy (3 classes)', score: accuracy, baseline: 'target 0.85' },
    calibration: false
  }))
}

/** Sentiment in the other languages: UMSAB's seven and Dutch, which no training row is in. */
function sentimentMultilingual (): LanguageData {
  const s = sentiment()
  return { ...s, languages: [...s.languages, 'nl'], validation: [...s.validation, ...everydaySentiment()] }
}

/** macro-F1 over the labels that occur in a set's gold rows (Bored has none in XED) */
const presentMacroF1 = (m: number[][]): number =>
  macroF1(
    m,
    m.flatMap((row, i) => (row.reduce((a, b) => a + b, 0) > 0 ? [i] : []))
  )

const XED_SOURCE =
  'XED projected emotion annotations (Helsinki-NLP/XED@76666d2, Projections/<lang>-projections.tsv; ' +
  'subtitle-retrieval/students/pairs-<lang>.txt for the split by English source line)'

/** Emotion in the other languages: XED subtitle lines (training/DATA.md), and the everyday texts. */
function emotionMultilingual (): LanguageData {
  const langs = [...XED_SPLIT_LANGS]
  const train = langs.flatMap(lang =>
    xedRows(lang, XED_EMOTION, 'train').map(r => ({ text: r.text, label: r.label, domain: `xed ${lang}` }))
  )
  const lines = everydayLanguages().filter(l => l.emotion !== null)
  const everyday = EVERYDAY_LANGS.map(lang => ({
    name: `everyday texts in ${lang} with an emotion, written by the project (never trained on)`,
    split: 'all',
    rows: lines.filter(l => l.lang === lang).map(l => ({ text: l.text, label: l.emotion as string })),
    metric: { name: 'accuracy', score: accuracy, baseline: 'target 0.70' },
    calibration: false
  }))
  return {
    languages: langs,
    train,
    validation: [
      ...langs.map(lang => ({
        name: `XED ${lang}`,
        split: 'val',
        rows: xedRows(lang, XED_EMOTION, 'val'),
        metric: { name: 'macro-F1', score: presentMacroF1, baseline: 'the XED bag model (v1) 0.33-0.36' }
      })),
      ...everyday
    ],
    sources: [{
      name: XED_SOURCE, path: 'github:Helsinki-NLP/XED (training/DATA.md)', licence: 'CC BY 4.0',
      split: `${langs.join(', ')}: 85% of lines by a hash of their English source line`, rows: train.length
    }]
  }
}

const BY_OP: Record<string, () => LanguageData> = {
  sentiment,
  'sentiment-multilingual': sentimentMultilingual,
  'emotion-multilingual': emotionMultilingual
}

/** The other languages' data of an op, or none. */
export const languageData = (op: string): LanguageData | undefined => BY_OP[op]?.()

/** A weight per row so that each language's rows weigh an average English domain's. */
export function languageWeights (english: Row[], other: Row[]): number[] {
  const mass = new Map<string, number>()
  for (const r of english) mass.set(r.domain ?? '', (mass.get(r.domain ?? '') ?? 0) + (r.weight ?? 1))
  const perDomain = [...mass.values()].reduce((a, b) => a + b, 0) / Math.max(1, mass.size)
  const count = new Map<string, number>()
  for (const r of other) count.set(r.domain ?? '', (count.get(r.domain ?? '') ?? 0) + 1)
  return other.map(r => perDomain / (count.get(r.domain ?? '') as number))
}
