// npm run train -- target_sentiment: model-store/target_sentiment/1, the sentiment towards an
// aspect of a text (negative, neutral, positive), trained on SemEval-2014 task 4 aspect terms
// (restaurants and laptops, training files only; a fixed 1-in-5 hash of the sentence validates).
import { readFileSync } from 'node:fs'
import { aspectInput } from '../lib/text/aspect.js'
import { isHeldOut, lines, need, type Labelled } from './data.js'
import { accuracy, macroF1 } from './metrics.js'
import { saveText, trainText, type TextModelSpec } from './text-model.js'

const env = process.env
const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&apos;/g, '\'').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')

/** aspect terms with 3-class polarity (conflict left out), split by a hash of their sentence */
function absa (file: string): { train: Labelled[], val: Labelled[] } {
  const xml = readFileSync(need(`target-sentiment/semeval2014-absa/${file}`), 'utf8')
  const out = { train: [] as Labelled[], val: [] as Labelled[] }
  for (const s of xml.split('<sentence ').slice(1)) {
    const text = unescape(/<text>([\s\S]*?)<\/text>/.exec(s)?.[1] ?? '')
    const part = isHeldOut(text) ? out.val : out.train
    for (const m of s.matchAll(/<aspectTerm term="[^"]*" polarity="(\w+)" from="(\d+)" to="(\d+)"\/>/g)) {
      if (m[1] === 'conflict') continue
      part.push({ text: aspectInput(text, { start: Number(m[2]), end: Number(m[3]) }), label: m[1] as string })
    }
  }
  return out
}

// whole review sentences (no aspect marked) teach sentiment words the aspect terms are too few for
const POLARITY = ['negative', 'positive']
const sentences = (path: string): Labelled[] => lines(path).map((l) => ({ label: POLARITY[Number(l.slice(0, 1))] as string, text: l.slice(2) }))
const extra = sentences('sentiment/customer-reviews-hu-liu/custrev.all')
const rest = absa('Restaurants_Train_v2.xml')
const lap = absa('Laptop_Train_v2.xml')
const LICENCE = 'research use (SemEval-2014 task 4 / META-SHARE terms; no licence in the files)'
const metric = (baseline: string) => ({ name: 'accuracy (3 classes)', score: accuracy, baseline })

export const TARGET_SENTIMENT: TextModelSpec = {
  op: 'target_sentiment',
  labels: ['negative', 'neutral', 'positive'],
  description: 'Sentiment towards an aspect of a text (negative, neutral, positive): an embedding bag over the whole text plus the words of the aspect\'s clause and its neighbours, marked apart (lib/text/aspect.ts). Trained on SemEval-2014 task 4 aspect terms (restaurants, laptops).',
  notes: 'Validation: the aspect terms of a fixed 1-in-5 hash of the training sentences (no official dev split; the test files are held out). Conflict terms left out. The Hu & Liu customer review sentences (positive/negative, no aspect marked) are added as whole texts. Tried (validation accuracy restaurants / laptops): aspect terms alone 0.697 / 0.657 (char 3-5-grams, 10 epochs), 0.719 / 0.630 (words, 20 epochs); with the review sentences 0.720 / 0.676 (2^17 buckets), with SST-2 sentences too 0.727 / 0.649, with char n-grams 0.726 / 0.649. With 2^16 buckets (half the memory): 0.707 / 0.681, 2^15 buckets 0.683 / 0.643. The marked words written 2 or 3 times to weigh them against the whole text (2^16 buckets): 0.729 / 0.658 and 0.738 / 0.658 (kept: 3; the 0.707 / 0.681 model called the food in "The food was absolutely delicious, but the service was slow" negative). Below the 0.75 / 0.68 targets.',
  features: { buckets: 1 << 16, charNgrams: [], wordBigrams: true, maxFeatures: 2000, maxChars: 3000 },
  train: { dim: Number(env.TRAIN_DIM ?? 32), epochs: Number(env.TRAIN_EPOCHS ?? 10), lr: Number(env.TRAIN_LR ?? 0.2), seed: 29, balance: env.TRAIN_BALANCE === '1' },
  rows: [...rest.train, ...lap.train, ...extra],
  validation: [
    { name: 'semeval2014-absa restaurants', split: 'hash 1/5 of Restaurants_Train_v2', rows: rest.val, metric: metric('target 0.75; published (test): IAN 0.786, ATAE-LSTM 0.772, majority 0.650') },
    { name: 'semeval2014-absa laptops', split: 'hash 1/5 of Laptop_Train_v2', rows: lap.val, metric: metric('target 0.68; published (test): IAN 0.721, ATAE-LSTM 0.687, majority 0.535') },
    { name: 'semeval2014-absa restaurants', split: 'hash 1/5 of Restaurants_Train_v2', rows: rest.val, metric: { name: 'macro F1', score: (m) => macroF1(m, [0, 1, 2]) } },
    { name: 'semeval2014-absa laptops', split: 'hash 1/5 of Laptop_Train_v2', rows: lap.val, metric: { name: 'macro F1', score: (m) => macroF1(m, [0, 1, 2]) } }
  ],
  sources: [
    { name: 'SemEval-2014 task 4 restaurants (aspect terms)', path: 'target-sentiment/semeval2014-absa', licence: LICENCE, split: 'Restaurants_Train_v2 minus the 1-in-5 hash', rows: rest.train.length },
    { name: 'SemEval-2014 task 4 laptops (aspect terms)', path: 'target-sentiment/semeval2014-absa', licence: LICENCE, split: 'Laptop_Train_v2 minus the 1-in-5 hash', rows: lap.train.length },
    { name: 'Customer review sentences (Hu & Liu 2004)', path: 'sentiment/customer-reviews-hu-liu', licence: 'research use (no explicit licence)', split: 'all', rows: extra.length }
  ]
}

if (import.meta.filename === process.argv[1] || (process.argv[1]?.endsWith('train.ts') === true && process.argv[2] === 'target_sentiment')) {
  const trained = trainText(TARGET_SENTIMENT)
  for (const m of trained.metrics) process.stderr.write(`  ${m.dataset} ${m.split}: ${m.metric} = ${m.value}\n`)
  if (env.TRAIN_DRY !== '1') process.stderr.write(`wrote ${await saveText(TARGET_SENTIMENT, trained)}\n`)
}
