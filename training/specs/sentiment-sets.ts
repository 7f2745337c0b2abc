// Sentiment's validation sets (each with its metric and the figures it is measured against) and the sources
// its training rows come from, as its spec (sentiment-emotion.ts) lists them.
import type { Labelled } from '../readers/data.js'
import { macroRecall } from '../trainers/scores.js'
import { binaryAccuracy, negation, shareCalled } from '../trainers/mix.js'
import type { Validation } from './op-spec.js'
import type { SentimentRows } from './sentiment-rows.js'

const SEMEVAL = {
  name: 'SemEval-2017 Task 4A (2013-2016 tweets)',
  path: 'sentiment/semeval2017-task4a',
  licence: 'research use (tweets under the Twitter/X terms; repository MIT)'
}

/** the rows of sentiment's validation sets */
export interface SentimentSets {
  val: Labelled[]
  sstVal: Labelled[]
  crVal: Labelled[]
  mdVal: Labelled[]
  alexaVal: Labelled[]
  requestsVal: Labelled[]
  days: Labelled[]
}

/** sentiment's validation sets, in the order its leave-one-domain-out runs refer to them */
export function sentimentValidation (s: SentimentSets): Validation[] {
  const accuracy3 = (m: number[][]) => m.reduce((a, r, i) => a + r[i]!, 0) / m.flat().reduce((a, b) => a + b, 0)
  const binary = binaryAccuracy(0, 2)
  return [
    {
      name: 'tweeteval-sentiment (SemEval tweets)',
      split: 'validation',
      rows: s.val,
      metric: {
        name: 'macro-averaged recall',
        score: m => macroRecall(m, [0, 1, 2]),
        baseline: 'target 0.66; fastText 0.629, SemEval-2017 best 0.681, RoBERTa 0.728; AFINN 0.575, VADER 0.559'
      }
    },
    {
      name: 'SST-2 movie-review sentences (positive vs negative)',
      split: 'dev',
      rows: s.sstVal.filter(r => r.label !== 'neutral'),
      metric: {
        name: 'binary accuracy',
        score: binary,
        baseline: 'target 0.85; fastText bigrams ~0.86, BERT-base 0.93'
      }
    },
    {
      name: 'SST-5 mapped to three classes',
      split: 'dev',
      rows: s.sstVal,
      metric: { name: 'macro-averaged recall', score: m => macroRecall(m, [0, 1, 2]), baseline: 'target 0.60' }
    },
    {
      name: 'multi-domain Amazon reviews (books, dvd, electronics)',
      split: 'hash 1/5',
      rows: s.mdVal,
      metric: { name: 'binary accuracy', score: binary, baseline: 'target 0.88; Blitzer 2007 in-domain 0.80-0.87' }
    },
    {
      name: 'Hu & Liu customer-review sentences',
      split: 'hash 1/5',
      rows: s.crVal,
      metric: { name: 'binary accuracy', score: binary, baseline: 'target 0.88; NBSVM 0.81' }
    },
    {
      name: 'Amazon Alexa reviews (1-2 vs 4-5 stars)',
      split: 'hash 1/5',
      rows: s.alexaVal.filter(r => r.label !== 'neutral'),
      metric: { name: 'binary accuracy', score: binary, baseline: 'target 0.88' }
    },
    {
      name: 'questions and requests (CLINC150 validation queries, every 5th)',
      split: 'validation',
      rows: s.requestsVal,
      metric: { name: 'share called neutral', score: shareCalled(1) }
    },
    {
      name: 'everyday texts written by the project (eval/data/everyday.jsonl; never trained on)',
      split: 'all',
      rows: s.days,
      metric: { name: 'accuracy (3 classes)', score: accuracy3 },
      calibration: false
    },
    {
      name: 'negated sentences written by the project (eval/data/negation.jsonl; never trained on)',
      split: 'all',
      rows: negation(),
      metric: { name: 'binary accuracy', score: binary, baseline: 'target 0.90' },
      calibration: false
    }
  ]
}

/** the sources of sentiment's rows, with the number of rows each gave (`b`: the built training rows) */
export function sentimentSources (b: SentimentRows) {
  return [
    { ...SEMEVAL, split: 'all files, minus texts in a validation set', rows: b.tweets },
    {
      name: 'TweetEval sentiment',
      path: 'sentiment/tweeteval-sentiment',
      licence: 'research use (tweets under the Twitter/X terms)',
      split: 'validation only'
    },
    {
      name: 'SST-5 (Socher et al. 2013) sentences in three grades',
      path: 'sentiment/sst5-sentences',
      licence: 'research use (Stanford Sentiment Treebank; reviews from rottentomatoes.com)',
      split: 'train (dev for validation)',
      rows: b.movies
    },
    {
      name: 'Stanford Sentiment Treebank phrases of the train trees, in three grades',
      path: 'github:munikarmanish/RNTN trees/train.txt, its first 8,544 trees (training/DATA.md)',
      licence: 'research use (Stanford Sentiment Treebank)',
      split:
        'train trees only; trees whose sentence is a dev sentence, ' +
        'and phrases of 4+ tokens found in a dev sentence, left out',
      rows: b.mix.phrases
    },
    {
      name: 'Customer reviews (Hu & Liu 2004)',
      path: 'sentiment/customer-reviews-hu-liu',
      licence: 'research use',
      split: 'hash 4/5'
    },
    {
      name: 'Amazon Alexa reviews',
      path: 'sentiment/amazon-alexa-reviews',
      licence: 'CC0 (Kaggle listing; not verified)',
      split: 'hash 4/5'
    },
    {
      name: 'Multi-domain sentiment (Blitzer et al. 2007): books, dvd, electronics',
      path: 'sentiment/multi-domain-sentiment-blitzer2007',
      licence: 'research use',
      split: 'hash 4/5 (the kitchen domain is held out and never read)',
      rows: b.reviews
    },
    {
      name:
        'Nine-product review sentences (Ding, Liu & Yu 2008), ' +
        'polarity by the sign of their opinion strengths',
      path: 'github:tonylay7/product-reviews-NN product_reviews (training/DATA.md)',
      licence: 'research use (Bing Liu)',
      split: 'all',
      rows: b.nine
    },
    {
      name: 'SemEval-2014 task 4 restaurant and laptop sentences, polarity of their aspects where they agree',
      path: 'target-sentiment/semeval2014-absa',
      licence: 'research use (SemEval-2014 task 4)',
      split: 'train files (never the test gold)',
      rows: b.absa
    },
    {
      name: 'Questions and requests as neutral: TREC questions, CLINC150 and SNIPS queries',
      path: 'intent/trec-question-classification, intent/clinc150, intent/snips-2017',
      licence: 'research use; CLINC150 CC BY 3.0; SNIPS CC0 (not verified)',
      split: 'train',
      rows: b.requests
    }
  ]
}
