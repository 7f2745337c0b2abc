// npm run train -- language_detection: the two refiners of the language identifier.
// lid.176 (pretrained, npm fasttext.wasm.js) takes Norwegian Bokmål for Danish often; when it answers
// either, a small fastText-style classifier trained here on XED subtitle lines (training/DATA.md)
// chooses between the two. It reads romanised Hindi as English: when it answers English (or no
// language surely) for a text in Latin letters, a second one (romanised Hindi tweets against English
// tweets and subtitle lines in other Latin-letter languages) tells Hindi apart. Writes model.json,
// weights.bin, features.json, hi-en/ and the manifest of model-store/language_detection/1 (the
// identifier's own weights stay in the npm package).
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { getTf } from '../lib/tf.js'
import { quantiseEmbedding } from './quantise.js'
import type { FeatureConfig } from '../lib/text/features.js'
import { LANGUAGE_NAMES } from '../lib/text/languages.js'
import { MIN_PROB, REFINED, ROMANISED, ROMANISED_DIR, ROMANISED_MIN, ROMANISED_MIN_WORDS, ROMANISED_SKIP } from '../lib/text/langid.js'
import { semevalSentiment, tweeteval, withoutOverlap } from './data.js'
import { predictAll, saveModel, train } from './fasttext.js'
import { isValidation, sentimix, umsab, xed, XED_DIR } from './multilingual-data.js'
import { existsSync, readFileSync } from 'node:fs'

const cfg: FeatureConfig = { buckets: 1 << 15, charNgrams: [1, 4], wordBigrams: false, maxFeatures: 1500, maxChars: 2000 }
const opts = { dim: 16, epochs: 10, lr: 0.3, seed: 5, balance: true, classes: REFINED.length }
const rows = REFINED.flatMap((l, label) => xed(l).map((r) => ({ text: r.text, label })))
const trainRows = rows.filter((r) => !isValidation(r.text))
const val = rows.filter((r) => isValidation(r.text))
const accuracy = (p: number[][], rs: typeof rows) => rs.filter((r, i) => (p[i]![1]! > p[i]![0]! ? 1 : 0) === r.label).length / rs.length
const w = train(trainRows, cfg, opts, (w) => ({ name: 'accuracy', value: accuracy(predictAll(w, val.map((r) => r.text), cfg), val) }))
const acc = accuracy(predictAll(w, val.map((r) => r.text), cfg), val)
process.stderr.write(`da/no validation accuracy ${acc.toFixed(4)} (${val.length} lines)\n`)

// The romanised-Hindi refiner: en (English tweets, XED's English subtitle lines), hi (SentiMix and
// UMSAB Hindi training tweets), other (XED lines in nine other Latin-letter languages). Validation:
// SentiMix dev and UMSAB Hindi val (share read as hi), TweetEval sentiment and emotion val (share left English).
const hiCfg: FeatureConfig = { buckets: 1 << 15, charNgrams: [1, 4], wordBigrams: true, maxFeatures: 1500, maxChars: 2000 }
const hiOpts = { dim: 16, epochs: 5, lr: 0.2, seed: 7, balance: false, classes: ROMANISED.length }
const englishVal = tweeteval('sentiment/tweeteval-sentiment', 'val')
const englishXed = join(XED_DIR, 'en-annotated.tsv')
if (!existsSync(englishXed)) throw new Error(`missing ${englishXed}: fetch Helsinki-NLP/XED (training/DATA.md)`)
const ENGLISH_TWEETS = ['emotion/tweeteval-emotion', 'sarcasm/tweeteval-irony', 'abuse/tweeteval-offensive', 'abuse/tweeteval-hate']
const OTHER = ['es', 'de', 'fr', 'it', 'pt', 'nl', 'da', 'no', 'sv']
const hiRows = [
  ...withoutOverlap(semevalSentiment(), englishVal).map((r) => ({ text: r.text, label: 0 })),
  // later tweets, with the emoji and hashtags the SemEval 2013-2016 files have few of
  ...ENGLISH_TWEETS.flatMap((d) => tweeteval(d, 'train')).map((r) => ({ text: r.text, label: 0 })),
  ...readFileSync(englishXed, 'utf8').split('\n').filter((l) => l.includes('\t')).map((l) => ({ text: (l.split('\t')[0] as string).trim(), label: 0 })),
  ...[...sentimix('train'), ...umsab('hi', 'train')].map((r) => ({ text: r.text, label: 1 })),
  ...OTHER.flatMap((l) => xed(l).map((r) => ({ text: r.text, label: 2 })))
]
const hiVal = { sentimix: sentimix('dev').map((r) => r.text), umsab: umsab('hi', 'val').map((r) => r.text), english: [...englishVal, ...tweeteval('emotion/tweeteval-emotion', 'val')].map((r) => r.text) }
// (as served: hi at ROMANISED_MIN or more)
const shareHi = (w: Parameters<typeof predictAll>[0], texts: string[]) => predictAll(w, texts, hiCfg).filter((p) => (p[1] as number) >= ROMANISED_MIN).length / texts.length
const hiScore = (w: Parameters<typeof predictAll>[0]) => ({ sentimix: shareHi(w, hiVal.sentimix), umsab: shareHi(w, hiVal.umsab), english: 1 - shareHi(w, hiVal.english) })
const hw = train(hiRows, hiCfg, hiOpts, (w) => { const s = hiScore(w); return { name: 'hi share (SentiMix dev, UMSAB hi val) / en share (TweetEval val)', value: (s.sentimix + s.umsab) / 2 - (1 - s.english) } })
const hiFigures = hiScore(hw)
process.stderr.write(`romanised Hindi read as hi: SentiMix dev ${hiFigures.sentimix.toFixed(4)}, UMSAB hi val ${hiFigures.umsab.toFixed(4)}; English tweets left English: ${hiFigures.english.toFixed(4)} (${hiRows.length} training rows)\n`)

const dir = process.env.TRAIN_OUT ?? join(import.meta.dirname, '..', 'model-store', 'language_detection', '1')
await mkdir(dir, { recursive: true })
const { tf } = await getTf()
await saveModel(tf, w, join(dir, 'model.json'))
await writeFile(join(dir, 'features.json'), JSON.stringify(cfg, null, 2) + '\n')
await mkdir(join(dir, ROMANISED_DIR), { recursive: true })
await saveModel(tf, hw, join(dir, ROMANISED_DIR, 'model.json'))
await quantiseEmbedding(join(dir, ROMANISED_DIR, 'model.json'), 'features')
await writeFile(join(dir, ROMANISED_DIR, 'features.json'), JSON.stringify(hiCfg, null, 2) + '\n')
const manifest = {
  name: 'language_detection',
  version: 1,
  kind: 'language-id',
  description: `Language identification: fastText lid.176 (pretrained, 176 languages; npm fasttext.wasm.js) answering the ${Object.keys(LANGUAGE_NAMES).length} languages of lib/text/languages.ts with their English names, a ${REFINED.join('/')} classifier trained here that decides between the two when lid.176 answers either, and a romanised-Hindi classifier trained here that answers Hindi for Hindi written in Latin letters (which lid.176 reads as English).`,
  languages: Object.keys(LANGUAGE_NAMES),
  labels: Object.keys(LANGUAGE_NAMES),
  inputs: [{ name: 'text', dtype: 'string', shape: [null] }],
  outputs: [{ name: 'language', dtype: 'string', shape: [null], description: 'ISO 639-1 code, English name and probability' }],
  files: ['model.json', 'weights.bin', 'features.json', `${ROMANISED_DIR}/model.json`, `${ROMANISED_DIR}/weights.bin`, `${ROMANISED_DIR}/features.json`],
  training: {
    command: 'npm run train -- language_detection (the da/no and romanised-Hindi refiners; lid.176 is not trained here)',
    seed: opts.seed,
    data: [
      { name: 'fastText lid.176.ftz (Joulin et al. 2016; Wikipedia, Tatoeba, SETimes), pretrained', path: 'fasttext.wasm.js', licence: 'model CC BY-SA 3.0 (fasttext.cc); package MIT' },
      { name: 'XED projected subtitle lines (Helsinki-NLP/XED@76666d2, Projections/{da,no}-projections.tsv)', path: 'github:Helsinki-NLP/XED (training/DATA.md)', licence: 'CC BY 4.0', split: '85% of lines by a hash of the text (15% validation)', rows: trainRows.length },
      { name: 'romanised-Hindi refiner, hi: SentiMix (SemEval-2020 task 9) Hindi-English tweets, train; UMSAB Hindi tweets, train', path: 'github:guptaanuj166/Hinglish-Sentiment-Analysis (training/DATA.md); sentiment/umsab-multilingual', licence: 'research use (shared-task tweets)', split: 'train (validation: SentiMix dev, UMSAB val)', rows: hiRows.filter((r) => r.label === 1).length },
      { name: 'romanised-Hindi refiner, en: SemEval 2013-2016 English tweets (without the TweetEval validation tweets); TweetEval emotion, irony, offensive and hate training tweets; XED AnnotatedData/en-annotated.tsv lines', path: 'sentiment/semeval2017-task4a; emotion/tweeteval-emotion; sarcasm/tweeteval-irony; abuse/tweeteval-offensive; abuse/tweeteval-hate; github:Helsinki-NLP/XED', licence: 'research use (tweets); CC BY 4.0', split: 'train (validation: TweetEval sentiment and emotion val)', rows: hiRows.filter((r) => r.label === 0).length },
      { name: 'romanised-Hindi refiner, other: XED projected lines of es, de, fr, it, pt, nl, da, no, sv (text only)', path: 'github:Helsinki-NLP/XED', licence: 'CC BY 4.0', rows: hiRows.filter((r) => r.label === 2).length }
    ],
    notes: `lid.176's top 8 labels are read and the first one in the answered set is returned; Nynorsk (nn) is answered as Norwegian (no). When that is da or no, the refiner (fastText-style embedding bag, dim ${opts.dim}, ${cfg.buckets} buckets of word unigrams and char 1-4-grams, ${opts.epochs} epochs from lr ${opts.lr}, class-balanced) picks between them; the probability is P(da or no) from lid.176 times the refiner's. When lid.176 answers English under ${ROMANISED_SKIP}, or no language at ${MIN_PROB} or more, for a text in Latin letters of ${ROMANISED_MIN_WORDS} words or more, the romanised-Hindi refiner (${ROMANISED_DIR}/: fastText-style embedding bag, dim ${hiOpts.dim}, ${hiCfg.buckets} buckets of word unigrams, bigrams and char 1-4-grams, float16, ${hiOpts.epochs} epochs from lr ${hiOpts.lr}, no class balance (the prior keeps English); labels ${ROMANISED.join(', ')}) answers Hindi when it gives hi ${ROMANISED_MIN} or more, with that probability; otherwise lid.176's answer stands.`
  },
  metrics: [
    { dataset: 'XED da + no subtitle lines', split: 'validation (15% by hash)', metric: 'accuracy, da against no', value: Number(acc.toFixed(4)), baseline: 'lid.176 alone, restricted to da/no: 0.58 (da 0.899, no 0.443)' },
    { dataset: 'SentiMix Hindi-English tweets', split: 'dev', metric: `share the romanised-Hindi refiner reads as hi (p >= ${ROMANISED_MIN})`, value: Number(hiFigures.sentimix.toFixed(4)) },
    { dataset: 'UMSAB Hindi tweets', split: 'validation', metric: `share the romanised-Hindi refiner reads as hi (p >= ${ROMANISED_MIN})`, value: Number(hiFigures.umsab.toFixed(4)), baseline: 'lid.176 alone: 0 (English 0.66, other Latin-letter languages the rest)' },
    { dataset: 'TweetEval English tweets (sentiment and emotion)', split: 'validation', metric: `share the romanised-Hindi refiner leaves English (p(hi) < ${ROMANISED_MIN})`, value: Number(hiFigures.english.toFixed(4)) }
  ],
  created: new Date().toISOString()
}
await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
process.stderr.write('wrote model-store/language_detection/1\n')
