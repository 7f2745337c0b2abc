// What the abuse classifier is trained on and scored with (training/recipes/abuse.ts trains it;
// training/calibration/calibrate.ts and eval/other-operations.ts read its validation sets from here, without
// importing the training script).
import { clinc, headlines, smsSpam, tweeteval, type Labelled } from '../readers/data.js'
import { macroF1, recall } from '../trainers/scores.js'
import type { TextValidation } from '../trainers/text-model.js'

const ABUSIVE = new Set(['offensive', 'hate'])
const binary = (rows: Labelled[]): Labelled[] =>
  rows.map(r => ({ text: r.text, label: ABUSIVE.has(r.label) ? 'Abusive' : 'Non Abusive' }))

export const olidVal = binary(tweeteval('abuse/tweeteval-offensive', 'val'))
export const hateVal = binary(tweeteval('abuse/tweeteval-hate', 'val'))
export const olid = binary(tweeteval('abuse/tweeteval-offensive', 'train'))
export const hate = binary(tweeteval('abuse/tweeteval-hate', 'train'))
// ordinary texts nobody would call abusive (assistant queries, SMS, news headlines): without them the
// model learns that anything unlike a tweet about politics is suspect
const nonAbusive = (texts: string[]) => texts.map(text => ({ text, label: 'Non Abusive' }))
const every = <T>(xs: T[], n: number) => xs.filter((_, i) => i % n === 0)
const plainHeadlines = (file: 'headline_train.txt' | 'headline_val.txt') =>
  headlines(file).filter(r => r.label === 'Non-Sarcastic')
export const ordinary = nonAbusive(
  [
    ...every(clinc('train'), 10),
    ...every(
      smsSpam().filter(r => r.label === 'ham'),
      3
    ),
    ...every(plainHeadlines('headline_train.txt'), 8)
  ].map(r => r.text)
)
export const ordinaryVal = nonAbusive(
  [...every(clinc('val'), 2), ...every(plainHeadlines('headline_val.txt'), 2)].map(r => r.text)
)

const LICENCE = 'research use (TweetEval: no licence given; Twitter/X terms)'
const OLID_BASELINE = 'target 0.75; published (test): RoBERTa 0.805, fastText 0.734, SVM 0.523'
const HATE_BASELINE = 'target 0.55; published (test): RoBERTa 0.523, fastText 0.506, SVM 0.367'
const TRAIN_SPLIT = 'train (val for validation)'

export const ABUSE = {
  op: 'abuse',
  labels: ['Non Abusive', 'Abusive'],
  description:
    'Abuse: whether a text is abusive (offensive language, insults, hate speech) or not. ' +
    'A hashed n-gram bag and a convolution over the words (shared word vectors), trained on OLID ' +
    '(OffensEval 2019) tweets via TweetEval and ordinary non-abusive texts, with HatEval (SemEval-2019 ' +
    'task 5, English) tweets training the shared encoder through a head of their own.',
  validation: [
    {
      name: 'tweeteval-offensive (OLID)',
      split: 'validation',
      rows: olidVal,
      metric: { name: 'macro F1', score: m => macroF1(m, [0, 1]), baseline: OLID_BASELINE }
    },
    {
      name: 'tweeteval-hate (HatEval)',
      split: 'validation',
      rows: hateVal,
      metric: { name: 'macro F1', score: m => macroF1(m, [0, 1]), baseline: HATE_BASELINE }
    },
    {
      name: 'ordinary texts (CLINC150 val queries, news-headlines-sarcasm val HuffPost headlines; every 2nd)',
      split: 'validation',
      rows: ordinaryVal,
      metric: { name: 'share called Abusive (false alarms; lower is better)', score: m => 1 - recall(m, 0) }
    }
  ] satisfies TextValidation[],
  sources: [
    {
      name: 'TweetEval offensive (OLID, Zampieri et al. 2019): the served head',
      path: 'abuse/tweeteval-offensive',
      licence: LICENCE,
      split: TRAIN_SPLIT,
      rows: olid.length
    },
    {
      name:
        'TweetEval hate (HatEval English, Basile et al. 2019): the hateful head only ' +
        '(trains the shared encoder, not the served head)',
      path: 'abuse/tweeteval-hate',
      licence: LICENCE,
      split: TRAIN_SPLIT,
      rows: hate.length
    },
    {
      name:
        'ordinary texts as Non Abusive for every head: CLINC150 train (every 10th), SMS Spam Collection ' +
        'ham (every 3rd), news-headlines-sarcasm train HuffPost headlines (every 8th)',
      path: 'intent/clinc150, intent/sms-spam-collection, sarcasm/news-headlines-sarcasm',
      licence:
        'CC BY 3.0 (CLINC150); CC BY 4.0 (SMS, UCI page; not verified); headlines not stated ' +
        '(cite Misra & Arora 2023), research use',
      rows: ordinary.length
    }
  ]
}
