// The training rows and validation texts of the language identifier's Latin-letter refiner
// (training/recipes/language_detection.ts): en (English tweets, XED's English subtitle lines, CLINC150
// queries, TREC questions, headlines, forum sentences), hi (SentiMix and UMSAB Hindi training tweets), es,
// de, fr, it, pt, nl (XED training lines, UMSAB training tweets but nl), other (XED da, no, sv lines).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { LATIN } from '../../lib/text/langid/langid.js'
import { clinc, headlines, semevalSentiment, suggestions, trec, tweeteval, withoutOverlap } from './data.js'
import { isValidation, sentimix, umsab, UMSAB_LANGS, xed, XED_DIR, xedHeldEnglish, xedTexts } from './multilingual.js'

const ENGLISH_TWEETS = [
  'emotion/tweeteval-emotion',
  'sarcasm/tweeteval-irony',
  'abuse/tweeteval-offensive',
  'abuse/tweeteval-hate'
]
/** the languages of the XED subtitle lines the refiner answers */
export const SUBTITLED = ['es', 'de', 'fr', 'it', 'pt', 'nl']
const OTHER = ['da', 'no', 'sv']
/** a code's label index among LATIN */
export const latinLabel = (code: string) => (LATIN as readonly string[]).indexOf(code)

/**
 * The refiner's training rows (no validation line, nor the English source of one, among them) and each
 * label's validation texts: the XED and UMSAB validation lines, SentiMix dev, TweetEval sentiment and
 * emotion val (en).
 */
export function latinRefinerData (): {
  rows: Array<{ text: string; label: number }>
  validation: Record<string, string[]>
} {
  const label = latinLabel
  const englishVal = tweeteval('sentiment/tweeteval-sentiment', 'val')
  const englishXed = join(XED_DIR, 'en-annotated.tsv')
  if (!existsSync(englishXed)) throw new Error(`missing ${englishXed}: fetch Helsinki-NLP/XED (training/DATA.md)`)
  const heldEnglish = xedHeldEnglish()
  const rows = [
    ...withoutOverlap(semevalSentiment(), englishVal).map(r => ({ text: r.text, label: label('en') })),
    // later tweets, with the emoji and hashtags the SemEval 2013-2016 files have few of
    ...ENGLISH_TWEETS.flatMap(d => tweeteval(d, 'train')).map(r => ({ text: r.text, label: label('en') })),
    ...readFileSync(englishXed, 'utf8')
      .split('\n')
      .filter(l => l.includes('\t'))
      .map(l => (l.split('\t')[0] as string).trim())
      .filter(t => !heldEnglish.has(t))
      .map(text => ({ text, label: label('en') })),
    // short English of other kinds: queries, questions, headlines, forum sentences
    ...[
      ...clinc('train'),
      ...trec(),
      ...headlines('headline_train.txt'),
      ...suggestions('V1.4_Training.csv')
    ].map(r => ({ text: r.text, label: label('en') })),
    ...[...sentimix('train'), ...umsab('hi', 'train')].map(r => ({ text: r.text, label: label('hi') })),
    ...SUBTITLED.flatMap(l =>
      [...xedTexts(l, 'train'), ...(l in UMSAB_LANGS ? umsab(l, 'train').map(r => r.text) : [])].map(text => ({
        text,
        label: label(l)
      }))
    ),
    ...OTHER.flatMap(l =>
      xed(l)
        .map(r => r.text)
        .filter(t => !isValidation(t))
    ).map(text => ({ text, label: label('other') }))
  ]
  const validation = {
    ...Object.fromEntries(
      SUBTITLED.map(l => [l, [...xedTexts(l, 'val'), ...(l in UMSAB_LANGS ? umsab(l, 'val').map(r => r.text) : [])]])
    ),
    hi: sentimix('dev').map(r => r.text),
    en: [...englishVal, ...tweeteval('emotion/tweeteval-emotion', 'val')].map(r => r.text)
  }
  return { rows, validation }
}
