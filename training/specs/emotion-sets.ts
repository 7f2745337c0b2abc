// Emotion's validation sets (each with its metric and the figures it is measured against) and the sources
// its training rows come from, as its spec (sentiment-emotion.ts) lists them.
import type { Labelled } from '../readers/data.js'
import { GOEMO } from '../readers/sources.js'
import { macroF1, recall } from '../trainers/scores.js'
import type { Validation } from './op-spec.js'

/** the rows of emotion's validation sets */
export interface EmotionSets {
  goVal: Labelled[]
  teVal: Labelled[]
  carerVal: Labelled[]
  isearVal: Labelled[]
  boredVal: Labelled[]
  days: Labelled[]
}

/** emotion's validation sets, in the order its leave-one-domain-out runs refer to them */
export function emotionValidation (s: EmotionSets): Validation[] {
  const mf = (labels: number[]) => (m: number[][]) => macroF1(m, labels)
  return [
    {
      name: 'GoEmotions single-label (fear, joy, anger, sadness, excitement)',
      split: 'dev',
      rows: s.goVal,
      metric: {
        name: 'macro F1 over Fear/Happy/Angry/Sad/Excited',
        score: mf([0, 1, 2, 3, 4]),
        baseline: 'target 0.70'
      }
    },
    {
      name: 'TweetEval emotion (anger, joy+optimism, sadness)',
      split: 'validation',
      rows: s.teVal,
      metric: {
        name: 'macro F1 over Angry/Happy/Sad',
        score: mf([1, 2, 3]),
        baseline: 'target 0.62; TweetEval RoBERTa 0.79 (4 labels, test)'
      }
    },
    {
      name: 'dair-ai CARER mapped (sadness, joy+love, anger, fear, surprise)',
      split: 'validation',
      rows: s.carerVal,
      metric: {
        name: 'macro F1 over Fear/Happy/Angry/Sad/Excited',
        score: mf([0, 1, 2, 3, 4]),
        baseline: 'target 0.70'
      }
    },
    {
      name: 'ISEAR mapped (joy, fear, anger+disgust, sadness)',
      split: 'hash 1/5',
      rows: s.isearVal,
      metric: { name: 'macro F1 over Fear/Happy/Angry/Sad', score: mf([0, 1, 2, 3]) }
    },
    {
      name: 'weakly labelled Bored texts (held out)',
      split: 'hash 1/5',
      rows: s.boredVal,
      metric: { name: 'Bored recall', score: m => recall(m, 5) },
      calibration: false
    },
    {
      name: 'everyday texts written by the project, those with an emotion (never trained on)',
      split: 'all',
      rows: s.days,
      metric: {
        name: 'accuracy',
        score: m => m.reduce((a, r, i) => a + r[i]!, 0) / m.flat().reduce((a, b) => a + b, 0)
      },
      calibration: false
    }
  ]
}

/** the sources of emotion's rows */
export function emotionSources () {
  return [
    { ...GOEMO, split: 'train (single-label rows; dev for validation)' },
    {
      name: 'WASSA-2017 EmoInt',
      path: 'emotion/wassa2017-emoint',
      licence: 'research use (tweets under Twitter/X terms)',
      split: 'train'
    },
    {
      name: 'TweetEval emotion',
      path: 'emotion/tweeteval-emotion',
      licence: 'research use (tweets under Twitter/X terms)',
      split: 'train (validation for validation)'
    },
    {
      name: 'dair-ai emotion (CARER, Saravia et al. 2018)',
      path: 'emotion/dair-ai-emotion-carer',
      licence: 'research use (educational and research purposes)',
      split: 'train (validation for validation)'
    },
    { name: 'ISEAR', path: 'emotion/isear', licence: 'research use', split: 'hash 4/5' },
    {
      name: 'Customer reviews, Amazon Alexa reviews, multi-domain reviews (polarity as weak emotion labels)',
      path:
        'sentiment/customer-reviews-hu-liu, sentiment/amazon-alexa-reviews, ' +
        'sentiment/multi-domain-sentiment-blitzer2007',
      licence: 'research use; Alexa CC0 (not verified)',
      split: 'hash 4/5'
    },
    {
      name: 'SemEval-2017 Task 4A tweets (Bored weak labels only)',
      path: 'sentiment/semeval2017-task4a',
      licence: 'research use (Twitter/X terms)'
    }
  ]
}
