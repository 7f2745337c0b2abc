// npm run train -- abuse: model-store/abuse/1, a binary abuse classifier (Non Abusive, Abusive)
// trained on OLID (offensive tweets) and HatEval (hate speech) training splits together.
import { clinc, headlines, smsSpam, tweeteval, withoutOverlap, type Labelled } from './data.js'
import { macroF1, recall } from './metrics.js'
import { saveText, trainText, type TextModelSpec } from './text-model.js'

const env = process.env
const ABUSIVE = new Set(['offensive', 'hate'])
const binary = (rows: Labelled[]): Labelled[] => rows.map((r) => ({ text: r.text, label: ABUSIVE.has(r.label) ? 'Abusive' : 'Non Abusive' }))

const olidVal = binary(tweeteval('abuse/tweeteval-offensive', 'val'))
const hateVal = binary(tweeteval('abuse/tweeteval-hate', 'val'))
const olid = binary(tweeteval('abuse/tweeteval-offensive', 'train'))
const hate = binary(tweeteval('abuse/tweeteval-hate', 'train'))
// ordinary texts nobody would call abusive (assistant queries, SMS, news headlines): without them the
// model learns that anything unlike a tweet about politics is suspect
const nonAbusive = (texts: string[]) => texts.map((text) => ({ text, label: 'Non Abusive' }))
const every = <T>(xs: T[], n: number) => xs.filter((_, i) => i % n === 0)
const ordinary = nonAbusive([...every(clinc('train'), 10), ...every(smsSpam().filter((r) => r.label === 'ham'), 3), ...every(headlines('headline_train.txt').filter((r) => r.label === 'Non-Sarcastic'), 8)].map((r) => r.text))
const ordinaryVal = nonAbusive([...every(clinc('val'), 2), ...every(headlines('headline_val.txt').filter((r) => r.label === 'Non-Sarcastic'), 2)].map((r) => r.text))
const rows = withoutOverlap([...olid, ...hate, ...ordinary], olidVal, hateVal)
const LICENCE = 'research use (TweetEval: no licence given; Twitter/X terms)'

export const ABUSE: TextModelSpec = {
  op: 'abuse',
  labels: ['Non Abusive', 'Abusive'],
  description: 'Abuse: whether a text is abusive (offensive language, insults, hate speech) or not. Trained on OLID (OffensEval 2019) and HatEval (SemEval-2019 task 5, English) tweets via TweetEval.',
  notes: 'Offensive (OLID) and hateful (HatEval) tweets are the Abusive class; the other tweets of both sets Non Abusive. The decision is the larger probability. Tried (validation macro F1, OLID / HatEval): OLID alone 0.708 / 0.481 (10 epochs lr 0.3: 0.713 / 0.476); OLID plus only the hateful HatEval tweets 0.704 / 0.320; both sets 20 epochs lr 0.5 0.651 / 0.516; words without char n-grams 0.645-0.692. Kept: both sets, 6 epochs, the least unbalanced pair, plus ordinary non-abusive texts (queries, SMS, headlines), which cut false alarms on ordinary texts from 0.363 to 0.069 and moved OLID from 0.668 to 0.682 and HatEval from 0.495 to 0.468. With 2^16 buckets instead of 2^17 (kept: half the memory): 0.677 / 0.474, false alarms 0.058. Below the 0.75 / 0.55 targets.',
  features: { buckets: 1 << 16, charNgrams: [3, 5], wordBigrams: true, maxFeatures: 1500, maxChars: 2000 },
  train: { dim: Number(env.TRAIN_DIM ?? 32), epochs: Number(env.TRAIN_EPOCHS ?? 6), lr: Number(env.TRAIN_LR ?? 0.2), seed: 23, balance: env.TRAIN_BALANCE !== '0' },
  rows,
  validation: [
    { name: 'tweeteval-offensive (OLID)', split: 'validation', rows: olidVal, metric: { name: 'macro F1', score: (m) => macroF1(m, [0, 1]), baseline: 'target 0.75; published (test): RoBERTa 0.805, fastText 0.734, SVM 0.523' } },
    { name: 'tweeteval-hate (HatEval)', split: 'validation', rows: hateVal, metric: { name: 'macro F1', score: (m) => macroF1(m, [0, 1]), baseline: 'target 0.55; published (test): RoBERTa 0.523, fastText 0.506, SVM 0.367' } },
    { name: 'ordinary texts (CLINC150 val queries, news-headlines-sarcasm val HuffPost headlines; every 2nd)', split: 'validation', rows: ordinaryVal, metric: { name: 'share called Abusive (false alarms; lower is better)', score: (m) => 1 - recall(m, 0) } }
  ],
  sources: [
    { name: 'TweetEval offensive (OLID, Zampieri et al. 2019)', path: 'abuse/tweeteval-offensive', licence: LICENCE, split: 'train (val for validation)', rows: olid.length },
    { name: 'TweetEval hate (HatEval English, Basile et al. 2019)', path: 'abuse/tweeteval-hate', licence: LICENCE, split: 'train (val for validation)', rows: hate.length },
    { name: 'ordinary texts as Non Abusive: CLINC150 train (every 10th), SMS Spam Collection ham (every 3rd), news-headlines-sarcasm train HuffPost headlines (every 8th)', path: 'intent/clinc150, intent/sms-spam-collection, sarcasm/news-headlines-sarcasm', licence: 'CC BY 3.0 (CLINC150); CC BY 4.0 (SMS, UCI page; not verified); headlines not stated (cite Misra & Arora 2023), research use', rows: ordinary.length }
  ]
}

if (import.meta.filename === process.argv[1] || (process.argv[1]?.endsWith('train.ts') === true && process.argv[2] === 'abuse')) {
  const trained = trainText(ABUSE)
  for (const m of trained.metrics) process.stderr.write(`  ${m.dataset} ${m.split}: ${m.metric} = ${m.value}\n`)
  if (env.TRAIN_DRY !== '1') process.stderr.write(`wrote ${await saveText(ABUSE, trained)}\n`)
}
