// Sarcasm: ironic tweets, satirical headlines, sarcastic forum posts and author-labelled tweets, with
// ordinary texts of other domains as the negatives a user sends most. The served model (kind text-cnn)
// is trained on these rows by training/recipes/sarcasm.ts (npm run train -- sarcasm); `features` and `train`
// below are those of the fastText-style model it replaced (training/train.ts no longer trains sarcasm).
import { clinc, headlines, semevalSentiment, tweeteval, withoutOverlap, type Labelled } from '../readers/data.js'
import { amazonAlexa, customerReviews, enronSpam, isarcasm, sarcasmV2, snips } from '../readers/domains.js'
import { agNews20k } from '../readers/domains-taxonomy.js'
import { accuracy, f1, recall } from '../trainers/scores.js'
import { everyday, weighDomains, type Everyday } from '../trainers/mix.js'
import type { OpSpec, Validation } from './op-spec.js'

const S = (sarcastic: boolean) => (sarcastic ? 'Sarcastic' : 'Non-Sarcastic')
const yes = (label: string) => label === 'irony' || label === 'sarcastic' || label === 'Sarcastic' || label === 'sarc'
const relabel = (rows: Labelled[]) => rows.map(r => ({ text: r.text, label: S(yes(r.label)) }))
const plain = (rows: Labelled[], n = 400) =>
  rows.map(r => ({ text: r.text.replace(/\s+/g, ' ').slice(0, n), label: 'Non-Sarcastic' }))
const every = <T>(rows: T[], k: number) => rows.filter((_, i) => i % k === 0)

/** the rows of sarcasm's validation sets */
interface SarcasmSets {
  ironyVal: Labelled[]
  headsVal: Labelled[]
  isVal: Labelled[]
  v2Val: Labelled[]
  ordVal: Labelled[]
  days: Everyday[]
}

/** sarcasm's validation sets, in the order its leave-one-domain-out runs refer to them */
function sarcasmValidation (s: SarcasmSets): Validation[] {
  return [
    {
      name: 'tweeteval-irony',
      split: 'validation',
      rows: s.ironyVal,
      metric: {
        name: 'F1 of the ironic class',
        score: m => f1(m, 1),
        baseline: 'target 0.62; fastText 0.631, SVM 0.617, SemEval-2018 best 0.71'
      }
    },
    {
      name: 'news-headlines-sarcasm',
      split: 'validation',
      rows: s.headsVal,
      metric: { name: 'accuracy', score: m => accuracy(m), baseline: 'target 0.85' }
    },
    {
      name: 'iSarcasmEval (author-labelled tweets)',
      split: 'hash 1/5',
      rows: s.isVal,
      metric: {
        name: 'F1 of the sarcastic class',
        score: m => f1(m, 1),
        baseline: 'SemEval-2022 task 6A best 0.605 (test)'
      }
    },
    {
      name: 'Sarcasm Corpus V2 (forums: general, rhetorical questions)',
      split: 'hash 1/5',
      rows: s.v2Val,
      metric: {
        name: 'F1 of the sarcastic class',
        score: m => f1(m, 1),
        baseline: 'Oraby et al. 2016 SVM 0.74 (GEN)'
      }
    },
    {
      name: 'ordinary texts (reviews, AG News, CLINC150 requests, Enron ham mail)',
      split: 'hash 1/5 or val',
      rows: s.ordVal,
      metric: {
        name: 'share called Sarcastic (false alarms; lower is better)',
        score: m => 1 - recall(m, 0),
        baseline: 'target <= 0.15'
      },
      calibration: false
    },
    {
      name: 'everyday texts written by the project, plain ones (never trained on)',
      split: 'all',
      rows: s.days.filter(r => !r.sarcastic).map(r => ({ text: r.text, label: 'Non-Sarcastic' })),
      metric: {
        name: 'share called Sarcastic (false alarms; lower is better)',
        score: m => 1 - recall(m, 0),
        baseline: 'target <= 0.15'
      },
      calibration: false
    },
    {
      name: 'everyday texts written by the project, sarcastic ones (never trained on)',
      split: 'all',
      rows: s.days.filter(r => r.sarcastic).map(r => ({ text: r.text, label: 'Sarcastic' })),
      metric: { name: 'Sarcastic recall', score: m => recall(m, 1) },
      calibration: false
    }
  ]
}

/** the sources of sarcasm's rows */
function sarcasmSources () {
  return [
    {
      name: 'TweetEval irony (SemEval-2018 Task 3A)',
      path: 'sarcasm/tweeteval-irony',
      licence: 'CC BY-NC-SA 4.0 (SemEval-2018 task 3 corpus); tweets under Twitter/X terms',
      split: 'train'
    },
    {
      name: 'News Headlines Dataset for Sarcasm Detection (Misra & Arora)',
      path: 'sarcasm/news-headlines-sarcasm',
      licence: 'not stated (cite Misra & Arora 2023); research use',
      split: 'train'
    },
    {
      name: 'iSarcasmEval (SemEval-2022 Task 6) English',
      path: 'sarcasm/isarcasmeval-semeval2022-en',
      licence: 'research use (tweets under Twitter/X terms)',
      split: 'hash 4/5 of train'
    },
    {
      name: 'Sarcasm Corpus V2 (Oraby et al. 2016), GEN and RQ',
      path: 'sarcasm/sarcasm-corpus-v2-oraby2016',
      licence: 'research use',
      split: 'hash 4/5 (HYP held out, never read)'
    },
    {
      name:
        'Ordinary texts as negatives: customer reviews, Alexa reviews, AG News, CLINC150, SNIPS, Enron ham, SemEval ' +
        'tweets',
      path:
        'sentiment/customer-reviews-hu-liu, sentiment/amazon-alexa-reviews, taxonomy/ag-news, intent/clinc150, ' +
        'intent/snips-2017, intent/enron-spam, sentiment/semeval2017-task4a',
      licence: 'research use; CLINC150 CC BY 3.0',
      split: 'samples of train'
    }
  ]
}

export const sarcasm: OpSpec = {
  labels: ['Non-Sarcastic', 'Sarcastic'],
  description:
    'Sarcasm and irony of short texts. Trained on ironic tweets (TweetEval irony), author-labelled sarcastic tweets ' +
    '(iSarcasmEval), satirical headlines (TheOnion vs HuffPost), sarcastic forum posts (Sarcasm Corpus V2, general ' +
    'and rhetorical questions), and ordinary texts of other domains as negatives (product reviews, requests, ' +
    'e-mails, tweets).',
  notes:
    'The sarcasm sets are all balanced or near it, so a model trained on them alone calls a large share of plain ' +
    'texts sarcastic (the served model before this one: 37% of ordinary texts). Ordinary texts from domains without ' +
    'sarcasm labels (customer-review sentences, Alexa reviews, CLINC150 and SNIPS requests, Enron ham mail, SemEval ' +
    'sentiment tweets) are taken as Non-Sarcastic: a few of them surely are sarcastic, so this trades some recall ' +
    'for far fewer false alarms. News articles (AG News) were negatives too in a first run and are not now: they ' +
    'taught that news style is never sarcastic, and satirical headlines fell to 0.776 (0.802 without them; AG News ' +
    'is still in the false-alarm measure). Each domain weighs about the same in training (irony tweets and ordinary ' +
    'texts 1.5 times, headlines 3 times: 1.5 before; before the calibration by input, headlines accuracy 0.802 -> ' +
    '0.829, irony F1 0.528 -> 0.543, forums F1 0.533 -> 0.531, ordinary false alarms 0.027 -> 0.029, the plain ' +
    'everyday texts of the project 0.104 -> 0.117). Not kept (same measure): headlines 2.25 times (headlines 0.824, ' +
    'irony 0.540), 4 times (headlines 0.834, irony 0.548, forums 0.518, everyday false alarms 0.122); with headlines ' +
    '3 times, dim 48 (headlines 0.825, irony 0.528) or 4 epochs (headlines 0.829, irony 0.545, iSarcasmEval 0.283 ' +
    'against 0.295); char 3-5-grams (irony 0.481, headlines 0.767). After the calibration by input the kept run ' +
    'gives headlines 0.832 and irony F1 0.548, but irony ECE 0.047 -> 0.055, iSarcasmEval ECE 0.048 -> 0.060 and ' +
    'leave-one-domain-out irony F1 0.466 -> 0.430, forums 0.290 -> 0.256 (headlines 2.25 times did no better there: ' +
    'irony left out 0.424, ECE before the calibration by input irony 0.076, iSarcasmEval 0.075). Three epochs: in an ' +
    'eight-epoch run, irony F1 peaked after the first (0.648) and fell to 0.548 as headlines and forum posts were ' +
    'memorised. The model is weaker than the tweets-and-headlines mixture it replaces on those two sets (irony F1 ' +
    '0.604, headlines 0.855) and far better on ordinary texts (false alarms 0.357 then). The irony tweets carry an ' +
    'artefact: tweets whose #irony/#sarcasm/#not hashtags were removed keep a double space; the tokeniser ignores ' +
    'spacing, so the model cannot use it.',
  features: { buckets: 1 << 17, charNgrams: [], wordBigrams: true, maxFeatures: 1500, maxChars: 2000 },
  vectors: true,
  train: { dim: 24, epochs: 3, lr: 0.2, seed: 13, balance: true, hidden: 64 },
  data: () => {
    const ironyVal = relabel(tweeteval('sarcasm/tweeteval-irony', 'val'))
    const headsVal = headlines('headline_val.txt')
    const isVal = relabel(isarcasm('val'))
    const v2Val = relabel(sarcasmV2('val'))
    const ordVal = [
      ...plain(customerReviews('val')),
      ...plain(amazonAlexa('val')),
      ...plain(every(agNews20k('val'), 4)),
      ...plain(every(clinc('val'), 3)),
      ...plain(
        every(
          enronSpam('val').filter(r => r.label === 'ham'),
          5
        )
      )
    ]
    const held = [ironyVal, headsVal, isVal, v2Val, ordVal]
    const ordinary = withoutOverlap(
      [
        ...plain(customerReviews('train')),
        ...plain(amazonAlexa('train')),
        ...plain(every(clinc('train'), 5)),
        ...plain(every(snips('train'), 5)),
        ...plain(
          every(
            enronSpam('train').filter(r => r.label === 'ham'),
            5
          )
        )
      ],
      ...held
    )
    const train = weighDomains([
      {
        domain: 'irony tweets',
        rows: withoutOverlap(relabel(tweeteval('sarcasm/tweeteval-irony', 'train')), ...held),
        share: 1.5
      },
      { domain: 'headlines', rows: withoutOverlap(headlines('headline_train.txt'), ...held), share: 3 },
      { domain: 'author tweets', rows: withoutOverlap(relabel(isarcasm('train')), ...held) },
      { domain: 'forums', rows: withoutOverlap(relabel(sarcasmV2('train')), ...held) },
      { domain: 'ordinary', rows: ordinary, share: 1.5 },
      { domain: 'tweets', rows: withoutOverlap(plain(every(semevalSentiment(), 6)), ...held), share: 0.5 }
    ])
    const days = everyday()
    return {
      train,
      domains: [
        { domain: 'irony tweets', validation: 0 },
        { domain: 'headlines', validation: 1 },
        { domain: 'forums', validation: 3 },
        { domain: 'ordinary', validation: 4 }
      ],
      validation: sarcasmValidation({ ironyVal, headsVal, isVal, v2Val, ordVal, days }),
      sources: sarcasmSources()
    }
  }
}
