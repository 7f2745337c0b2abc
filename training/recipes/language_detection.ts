// npm run train -- language_detection: the two refiners of the language identifier.
// lid.176 (pretrained, npm fasttext.wasm.js) takes Norwegian Bokmål for Danish often; when it answers
// either, a small fastText-style classifier trained here on XED subtitle lines (training/DATA.md)
// chooses between the two. It is unsure of short texts and reads romanised Hindi as English: when it
// answers no language surely, or English, or reads a text too short to tell, for a text in Latin
// letters, a second one (short subtitle lines and tweets of the languages the text operations serve,
// romanised Hindi included) reads it. Writes model.json, weights.bin, features.json, latin/ and the
// manifest of model-store/language_detection/1 (the identifier's own weights stay in the npm package).
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { getTf } from '../../lib/runtime/tf.js'
import { quantiseEmbedding } from '../trainers/quantise.js'
import type { FeatureConfig } from '../../lib/text/bag/features.js'
import { LANGUAGE_NAMES } from '../../lib/text/langid/languages.js'
import {
  type Detection,
  LATIN,
  LATIN_DIR,
  LATIN_MIN,
  LATIN_SKIP,
  latinRefined,
  MIN_LETTERS,
  MIN_PROB,
  REFINED,
  ROMANISED_MIN,
  ROMANISED_MIN_WORDS
} from '../../lib/text/langid/langid.js'
import { trainSparseSgd } from '../trainers/sparse-sgd.js'
import { predictAll, saveModel } from '../trainers/embedding-bag.js'
import { isValidation, UMSAB_LANGS, xed } from '../readers/multilingual.js'
import { latinLabel as label, latinRefinerData, SUBTITLED } from '../readers/latin-refiner.js'
import { nextVersion, versionOf } from '../readers/store.js'
import { options } from '../readers/options.js'

const cfg: FeatureConfig = {
  buckets: 1 << 15,
  charNgrams: [1, 4],
  wordBigrams: false,
  maxFeatures: 1500,
  maxChars: 2000
}
const opts = { dim: 16, epochs: 10, lr: 0.3, seed: 5, balance: true, classes: REFINED.length }
const rows = REFINED.flatMap((l, label) => xed(l).map(r => ({ text: r.text, label })))
const trainRows = rows.filter(r => !isValidation(r.text))
const val = rows.filter(r => isValidation(r.text))
const accuracy = (p: number[][], rs: typeof rows) =>
  rs.filter((r, i) => (p[i]![1]! > p[i]![0]! ? 1 : 0) === r.label).length / rs.length
const w = trainSparseSgd(trainRows, cfg, opts, w => ({
  name: 'accuracy',
  value: accuracy(
    predictAll(
      w,
      val.map(r => r.text),
      cfg
    ),
    val
  )
}))
const acc = accuracy(
  predictAll(
    w,
    val.map(r => r.text),
    cfg
  ),
  val
)
process.stderr.write(`da/no validation accuracy ${acc.toFixed(4)} (${val.length} lines)\n`)

// The Latin-letter refiner, read when lid.176 is unsure, answers English under LATIN_SKIP, or reads a
// text too short to tell: en (English tweets, XED's English subtitle lines, CLINC150 queries, TREC
// questions, headlines, forum sentences), hi (SentiMix and UMSAB Hindi training tweets), es, de, fr,
// it, pt, nl (XED training lines, UMSAB training tweets but nl), other (XED da, no, sv lines). No validation line,
// nor the English source of one, trains it.
// Validation: the XED and UMSAB validation lines (share answered their language), SentiMix dev (share
// answered hi), TweetEval sentiment and emotion val (share left English).
const latinCfg: FeatureConfig = {
  buckets: 1 << 15,
  charNgrams: [1, 4],
  wordBigrams: true,
  maxFeatures: 1500,
  maxChars: 2000
}
const latinOpts = { dim: 16, epochs: 5, lr: 0.2, seed: 7, balance: false, classes: LATIN.length }
const { rows: latinRows, validation: latinVal } = latinRefinerData()
// as served (latinRefined): the share of each language's validation texts the refiner answers that language
// (en: left English)
const UNSURE: Detection = { code: 'en', name: 'English', prob: 0, alternatives: [] }
const latinScore = (w: Parameters<typeof predictAll>[0]) =>
  Object.fromEntries(
    Object.entries(latinVal).map(([l, texts]) => {
      const p = predictAll(w, texts, latinCfg)
      return [l, texts.filter((t, i) => latinRefined(t, UNSURE, p[i] as number[]).code === l).length / texts.length]
    })
  )
const lw = trainSparseSgd(latinRows, latinCfg, latinOpts, w => {
  const s = latinScore(w)
  return {
    name: 'mean share answered right (validation)',
    value: Object.values(s).reduce((a, b) => a + b, 0) / Object.keys(s).length
  }
})
const latinFigures = latinScore(lw)
process.stderr.write(
  `Latin-letter refiner, share answered right: ${Object.entries(latinFigures)
    .map(([l, v]) => `${l} ${v.toFixed(4)}`)
    .join(', ')} (${latinRows.length} training rows)\n`
)

const dir = options.out ?? nextVersion('language_detection')
await mkdir(dir, { recursive: true })
const { tf } = await getTf()
await saveModel(tf, w, join(dir, 'model.json'))
await writeFile(join(dir, 'features.json'), JSON.stringify(cfg, null, 2) + '\n')
await mkdir(join(dir, LATIN_DIR), { recursive: true })
await saveModel(tf, lw, join(dir, LATIN_DIR, 'model.json'))
await quantiseEmbedding(join(dir, LATIN_DIR, 'model.json'), 'features')
await writeFile(join(dir, LATIN_DIR, 'features.json'), JSON.stringify(latinCfg, null, 2) + '\n')
const manifest = {
  name: 'language_detection',
  version: versionOf(dir),
  kind: 'language-id',
  description:
    'Language identification: fastText lid.176 (pretrained, 176 languages; npm fasttext.wasm.js) answering the ' +
    `${Object.keys(LANGUAGE_NAMES).length} languages of lib/text/langid/languages.ts with their English names, ` +
    `a ${REFINED.join('/')} classifier trained here that decides between the two when lid.176 answers either, ` +
    'and a Latin-letter classifier trained here on short subtitle lines and tweets that reads the texts lid.176 ' +
    'is unsure of, answers English for, or finds too short, among en, hi, es, de, fr, it, pt, nl and other ' +
    '(it answers Hindi written in Latin letters, which lid.176 reads as English).',
  languages: Object.keys(LANGUAGE_NAMES),
  labels: Object.keys(LANGUAGE_NAMES),
  inputs: [{ name: 'text', dtype: 'string', shape: [null] }],
  outputs: [
    { name: 'language', dtype: 'string', shape: [null], description: 'ISO 639-1 code, English name and probability' }
  ],
  files: [
    'model.json',
    'weights.bin',
    'features.json',
    `${LATIN_DIR}/model.json`,
    `${LATIN_DIR}/weights.bin`,
    `${LATIN_DIR}/features.json`
  ],
  training: {
    command: 'npm run train -- language_detection (the da/no and Latin-letter refiners; lid.176 is not trained here)',
    seed: opts.seed,
    data: [
      {
        name: 'fastText lid.176.ftz (Joulin et al. 2016; Wikipedia, Tatoeba, SETimes), pretrained',
        path: 'fasttext.wasm.js',
        licence: 'model CC BY-SA 3.0 (fasttext.cc); package MIT'
      },
      {
        name: 'XED projected subtitle lines (Helsinki-NLP/XED@76666d2, Projections/{da,no}-projections.tsv)',
        path: 'github:Helsinki-NLP/XED (training/DATA.md)',
        licence: 'CC BY 4.0',
        split: '85% of lines by a hash of the text (15% validation)',
        rows: trainRows.length
      },
      {
        name:
          'Latin-letter refiner, en: SemEval 2013-2016 English tweets (without the TweetEval validation tweets); ' +
          'TweetEval emotion, irony, offensive and hate training tweets; XED AnnotatedData/en-annotated.tsv lines ' +
          '(without the English sources of XED validation lines); CLINC150 train queries, TREC training questions, ' +
          'news-headlines-sarcasm training headlines, SemEval-2019 task 9 training sentences',
        path: [
          'sentiment/semeval2017-task4a',
          'emotion/tweeteval-emotion',
          'sarcasm/tweeteval-irony',
          'abuse/tweeteval-offensive',
          'abuse/tweeteval-hate',
          'github:Helsinki-NLP/XED',
          'intent/clinc150',
          'intent/trec-question-classification',
          'sarcasm/news-headlines-sarcasm',
          'intent/semeval2019-task9-suggestions'
        ].join('; '),
        licence: 'research use (tweets); CC BY 4.0; see each dataset PROVENANCE.txt',
        split: 'train (validation: TweetEval sentiment and emotion val)',
        rows: latinRows.filter(r => r.label === label('en')).length
      },
      {
        name:
          'Latin-letter refiner, hi: SentiMix (SemEval-2020 task 9) Hindi-English tweets, train; ' +
          'UMSAB Hindi tweets, train',
        path: 'github:guptaanuj166/Hinglish-Sentiment-Analysis (training/DATA.md); sentiment/umsab-multilingual',
        licence: 'research use (shared-task tweets)',
        split: 'train (validation: SentiMix dev)',
        rows: latinRows.filter(r => r.label === label('hi')).length
      },
      {
        name:
          'Latin-letter refiner, es, de, fr, it, pt, nl: XED projected lines (text only) ' +
          'and UMSAB training tweets (not nl)',
        path: 'github:Helsinki-NLP/XED; sentiment/umsab-multilingual',
        licence: 'CC BY 4.0; research use (tweets)',
        split:
          'XED: the training side of the split by English source line (training/DATA.md); ' +
          'UMSAB: train (validation: both validation sides)',
        rows: latinRows.filter(r => SUBTITLED.includes(LATIN[r.label] as string)).length
      },
      {
        name: 'Latin-letter refiner, other: XED projected lines of da, no, sv (text only)',
        path: 'github:Helsinki-NLP/XED',
        licence: 'CC BY 4.0',
        split: 'da, no: 85% by a hash of the text',
        rows: latinRows.filter(r => r.label === label('other')).length
      }
    ],
    notes:
      "lid.176's top 8 labels are read and the first one in the answered set is returned; " +
      'Nynorsk (nn) is answered as Norwegian (no). When that is da or no, the refiner ' +
      `(fastText-style embedding bag, dim ${opts.dim}, ${cfg.buckets} buckets of word unigrams and char 1-4-grams, ` +
      `${opts.epochs} epochs from lr ${opts.lr}, class-balanced) picks between them; ` +
      "the probability is P(da or no) from lid.176 times the refiner's. " +
      `When lid.176 answers no language at ${MIN_PROB} or more, or English under ${LATIN_SKIP}, ` +
      `or the text has under ${MIN_LETTERS} letters, for a text in Latin letters, the Latin-letter refiner ` +
      `(${LATIN_DIR}/: fastText-style embedding bag, dim ${latinOpts.dim}, ${latinCfg.buckets} buckets of ` +
      `word unigrams, bigrams and char 1-4-grams, float16, ${latinOpts.epochs} epochs from lr ${latinOpts.lr}, ` +
      `no class balance (the prior keeps English); labels ${LATIN.join(', ')}) ` +
      `answers es, de, fr, it, pt or nl when it gives it ${LATIN_MIN} or more, ` +
      `and Hindi when it gives hi ${ROMANISED_MIN} or more in a text of ${ROMANISED_MIN_WORDS} words or more, ` +
      'with that probability; otherwise the lid.176 answer stands. ' +
      "An operation that does not serve the refiner's answer routes by the lid.176 answer."
  },
  metrics: [
    {
      dataset: 'XED da + no subtitle lines',
      split: 'validation (15% by hash)',
      metric: 'accuracy, da against no',
      value: Number(acc.toFixed(4)),
      baseline: 'lid.176 alone, restricted to da/no: 0.58 (da 0.899, no 0.443)'
    },
    ...SUBTITLED.map(l => ({
      dataset: `XED ${l} lines${l in UMSAB_LANGS ? ` and UMSAB ${l} tweets` : ''}`,
      split: 'validation',
      metric: 'share the Latin-letter refiner answers this language',
      value: Number((latinFigures[l] as number).toFixed(4))
    })),
    {
      dataset: 'SentiMix Hindi-English tweets',
      split: 'dev',
      metric: 'share the Latin-letter refiner answers hi',
      value: Number((latinFigures.hi as number).toFixed(4))
    },
    {
      dataset: 'TweetEval English tweets (sentiment and emotion)',
      split: 'validation',
      metric: 'share the Latin-letter refiner leaves English',
      value: Number((latinFigures.en as number).toFixed(4))
    }
  ],
  created: new Date().toISOString()
}
await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
process.stderr.write('wrote model-store/language_detection/1\n')
