// The validation sets (each with its metric and the figures it is measured against) and the sources of
// intent and of the kind of feedback (new intent), as their specs (intent.ts) list them.
import type { Labelled } from '../readers/data.js'
import { AG, BBC, CLINC, GOEMO, HUFFPOST } from '../readers/sources.js'
import { accuracy, f1, macroF1, recall } from '../trainers/scores.js'
import { shareCalled } from '../trainers/mix.js'
import type { Validation } from './op-spec.js'

const COMPLAINTS = {
  name: 'Complaints on Twitter (Preotiuc-Pietro et al. 2019)',
  path: 'intent/complaints-twitter',
  licence: 'research use (not stated)'
}
const SUGGEST = {
  name: 'SemEval-2019 Task 9 suggestions',
  path: 'intent/semeval2019-task9-suggestions',
  licence: 'CC BY-NC-SA 4.0'
}
const REVIEWS = {
  name: 'Customer reviews (Hu & Liu), Amazon Alexa reviews, multi-domain reviews (books, dvd, electronics)',
  path:
    'sentiment/customer-reviews-hu-liu, sentiment/amazon-alexa-reviews, ' +
    'sentiment/multi-domain-sentiment-blitzer2007',
  licence: 'research use; Alexa CC0 (not verified)',
  split: 'hash 4/5'
}
const total = (m: number[][]) =>
  Math.max(
    1,
    m.flat().reduce((a, b) => a + b, 0)
  )
const SPAM_SHARE = 'share classed spam or marketing'
const shareSpam = (m: number[][]) => m.reduce((a, r) => a + r[2]! + r[3]!, 0) / total(m)
const acc = (m: number[][]) =>
  m.reduce((a, r, i) => a + r[i]!, 0) /
  Math.max(
    1,
    m.flat().reduce((a, b) => a + b, 0)
  )

/** the rows of intent's validation sets */
export interface IntentSets {
  mix: Labelled[]
  reviewVal: Labelled[]
  mailVal: Labelled[]
  hamVal: Labelled[]
  days: Labelled[]
}

/** intent's validation sets, in the order its leave-one-domain-out runs refer to them */
export function intentValidation (s: IntentSets): Validation[] {
  return [
    {
      name:
        'intent mix (BBC, AG News, HuffPost, TREC, CLINC150, SNIPS, SMS spam, complaints, suggestions, ' +
        'gratitude)',
      split: 'hash 1/5 + CLINC val',
      rows: s.mix,
      metric: {
        name: 'macro F1 over news/query/spam/feedback',
        score: m => macroF1(m, [0, 1, 2, 4]),
        baseline: 'target 0.85'
      }
    },
    {
      name: 'intent mix',
      split: 'hash 1/5',
      rows: s.mix,
      metric: { name: 'F1 marketing (weak labels)', score: m => f1(m, 3) },
      calibration: false
    },
    {
      name: 'reviews (customer reviews, Alexa, multi-domain Amazon)',
      split: 'hash 1/5',
      rows: s.reviewVal,
      metric: { name: 'share classed feedback', score: shareCalled(4), baseline: 'target 0.90' }
    },
    {
      name: 'Enron e-mail spam (enron1-5)',
      split: 'hash 1/5',
      rows: s.mailVal,
      metric: { name: SPAM_SHARE, score: shareSpam }
    },
    {
      name: 'Enron e-mail ham (enron1-5: business and personal mail)',
      split: 'hash 1/5',
      rows: s.hamVal,
      metric: { name: SPAM_SHARE, score: shareSpam, baseline: 'target at most 0.05' },
      calibration: false
    },
    {
      name: 'everyday texts written by the project (never trained on)',
      split: 'all',
      rows: s.days,
      metric: { name: 'accuracy', score: acc },
      calibration: false
    }
  ]
}

/** the sources of intent's rows */
export function intentSources () {
  return [
    BBC,
    AG,
    HUFFPOST,
    {
      name: 'TREC question classification (Li & Roth)',
      path: 'intent/trec-question-classification',
      licence: 'research use'
    },
    CLINC,
    { name: 'SNIPS 2017 intents', path: 'intent/snips-2017', licence: 'CC0 (Snips NLU benchmark; not verified)' },
    {
      name: 'SMS Spam Collection',
      path: 'intent/sms-spam-collection',
      licence: 'CC BY 4.0 (UCI page; not verified)'
    },
    {
      name: 'Enron-Spam (Metsis et al. 2006), enron1-5, spam and ham',
      path: 'intent/enron-spam',
      licence: 'research use (public Enron corpus)',
      split: 'hash 4/5 (enron6 held out, never read)'
    },
    COMPLAINTS,
    SUGGEST,
    { ...GOEMO, split: 'gratitude single-label rows' },
    REVIEWS,
    {
      name: 'SST-5 sentences (as reviews)',
      path: 'sentiment/sst5-sentences',
      licence: 'research use',
      split: 'train'
    }
  ]
}

/** the rows of the kind of feedback's validation sets */
export interface NewIntentSets {
  cs: Labelled[]
  appreciation: Labelled[]
  reviewVal: Labelled[]
  days: Labelled[]
}

/** the kind of feedback's validation sets, in the order its leave-one-domain-out run refers to them */
export function newIntentValidation (s: NewIntentSets): Validation[] {
  return [
    {
      name: 'complaints (hash 1/5) + suggestions (trial set)',
      split: 'validation',
      rows: s.cs,
      metric: {
        name: 'accuracy complaint vs suggestion',
        score: m =>
          ((m[0]![0] as number) + (m[1]![1] as number)) /
          (m[0]!.reduce((a, b) => a + b, 0) + m[1]!.reduce((a, b) => a + b, 0)),
        baseline: 'target 0.85'
      }
    },
    {
      name: 'GoEmotions gratitude/admiration',
      split: 'dev',
      rows: s.appreciation,
      metric: { name: 'appreciation recall', score: m => recall(m, 2) }
    },
    {
      name: 'reviews: negative as complaint, positive as appreciation',
      split: 'hash 1/5',
      rows: s.reviewVal,
      metric: { name: 'accuracy', score: m => accuracy(m) }
    },
    {
      name: 'everyday feedback written by the project (never trained on)',
      split: 'all',
      rows: s.days,
      metric: { name: 'accuracy', score: acc },
      calibration: false
    }
  ]
}

/** the sources of the kind of feedback's rows */
export function newIntentSources () {
  return [
    { ...COMPLAINTS, split: 'complaints, hash 4/5' },
    { ...SUGGEST, split: 'training file; trial set for validation' },
    { ...GOEMO, split: 'gratitude and admiration single-label rows' },
    REVIEWS
  ]
}
