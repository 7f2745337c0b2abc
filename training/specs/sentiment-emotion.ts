// Sentiment and emotion: what each is trained on (a mixture of domains) and scored with.
import type { FeatureConfig } from '../../lib/text/bag/features.js'
import {
  clinc,
  goemotions,
  semevalSentiment,
  split,
  trec,
  tweeteval,
  withoutOverlap,
  type Labelled
} from '../readers/data.js'
import {
  absaSentences,
  amazonAlexa,
  customerReviews,
  dairEmotion,
  isear,
  multiDomainReviews,
  snips,
  sst5,
  tweetevalEmotion,
  wassaEmotion
} from '../readers/domains.js'
import { macroF1, macroRecall, recall } from '../trainers/metrics.js'
import { binaryAccuracy, dedupe, everyday, negation, shareCalled, weighDomains } from '../trainers/mix.js'
import type { OpSpec } from './op-spec.js'
import { GOEMO } from '../readers/sources.js'
import { liuNineProducts, sentimentMix } from '../readers/sentiment.js'

/** word unigrams, bigrams and character 3-5-grams; long reviews are read up to 2,000 characters */
export const MIXED: FeatureConfig = {
  buckets: 1 << 17,
  charNgrams: [3, 5],
  wordBigrams: true,
  maxFeatures: 1500,
  maxChars: 2000
}

const SEMEVAL = {
  name: 'SemEval-2017 Task 4A (2013-2016 tweets)',
  path: 'sentiment/semeval2017-task4a',
  licence: 'research use (tweets under the Twitter/X terms; repository MIT)'
}

const NOTES = [
  'Tweets, movie sentences and reviews each weigh about the same in training whatever their size; the SST phrases (every distinct phrase of the 8,544 train trees that is not itself a train sentence: 145,355, about half of them neutral and 44% of three words or fewer) weigh as much again as the movie sentences, in the movies domain, so that the parts of a sentence teach what its words and short phrases are worth (the standard way SST models are trained; no dev sentence or part of one of 4+ tokens is among them).',
  "The nine-product and SemEval-2014 review sentences join the reviews domain at the reviews' weight per row. Product reviews and SST-2-style sentences have no neutral class except Alexa's 3-star, SST's middle grade and the SemEval-2014 sentences whose aspects are all neutral, so neutral is learned mostly from tweets, movie sentences and phrases, and the questions and requests below.",
  'Questions and requests (TREC questions, CLINC150 and SNIPS queries to an assistant: 33,051 rows, all neutral; CLINC150 intents whose queries carry a feeling, such as thanks, a lost or blocked card, fraud or disagreement, are left out) weigh a quarter of a domain, outside the class balance (training/trainers/text_cnn.py --balance-skip: balancing them in took weight from the neutral tweets, whose recall fell 0.488 -> 0.449), and their validation set (CLINC150 validation queries of the same intents) joins the others in fitting the temperature and the calibration by input. Before them the model called about half of those queries neutral and most of the rest negative (questions about boiling an egg or a heat pump). Kept (seed 7; tweets, SST-2, SST-5, multi-domain, Hu & Liu, Alexa, requests called neutral, everyday; after the calibration by input): 0.666, 0.831, 0.598, 0.844, 0.837, 0.931, 0.963, 0.596. Retrains of this machine with the feeling intents still in (33,950 rows; the calibration by input fitted without the requests set unless said): without any requests 0.670, 0.833, 0.586, 0.845, 0.843, 0.931, 0.482, 0.564; a quarter of a domain 0.662, 0.819, 0.572, 0.848, 0.839, 0.931, 0.938, 0.596, and with the requests set in the calibration 0.668, 0.819, 0.594, 0.849, 0.837, 0.931, 0.955, 0.608; a tenth 0.662, 0.823, 0.576, 0.846, 0.837, 0.931, 0.885, 0.564; a half 0.660, 0.823, 0.577, 0.846, 0.831, 0.928, 0.962, 0.616 (with the requests set in the calibration: tweets 0.657, under the target); a quarter inside the class balance 0.659, 0.821, 0.576, 0.848, 0.827, 0.926, 0.943, 0.608 (seed 8: 0.659, 0.818, 0.566, 0.844, 0.831, 0.931, 0.950, 0.600). A seed moves these rows by up to 0.015.',
  "Negation: the words after a negating word (not, no, never, n't, dont ...) up to the end of the clause (a punctuation mark or but, however, although, though, yet) are under negation (Das & Chen 2001; Pang et al. 2002): each is a feature of its own beside its plain word, and the mean word vector of those words goes to the word-vector units beside the mean of all (lib/text/words/negation.ts, lib/text/bag/sentence-input.ts).",
  'How the embedding bag (the model before the word-order ones) got its inputs, measured on the validation rows before the calibration by input (tweets, SST-2, SST-5, multi-domain, Hu & Liu, Alexa, everyday): the bag before, retrained: 0.635, 0.799, 0.548, 0.831, 0.809, 0.942, 0.556; with the SST phrases 0.650, 0.817, 0.563, 0.845, 0.808, 0.933, 0.548; and the nine-product and SemEval-2014 sentences 0.642, 0.818, 0.570, 0.847, 0.829, 0.940, 0.552; and the negation feature 0.646, 0.823, 0.571, 0.856, 0.821, 0.935, 0.552; and the negated word vectors (kept) 0.647, 0.822, 0.572, 0.850, 0.843, 0.928, 0.568. The same with seed 8: 0.656, 0.815, 0.569, 0.850, 0.829, 0.931, 0.552, so a seed moves a row by up to 0.015 (Hu & Liu, 509 rows) and the last two steps are within that.',
  "Tried with the embedding bag and not kept (same measure): a softmax head per domain (tweets, movies, reviews) blended by a learned gate over the same embedding bag, each head learning from its own domain only: 0.653, 0.826, 0.563, 0.829, 0.831, 0.919, 0.548 (tweets up, reviews down); the same with a head shared by every domain under each domain's own part, and negation: 0.655, 0.822, 0.569, 0.841, 0.821, 0.928, 0.524; the phrases at half the weight: 0.648, 0.812, 0.565, 0.843, 0.821, 0.935, 0.532; reading up to 5,000 features of a text instead of 1,500 (41% of the multi-domain reviews have more): 0.651, 0.820, 0.565, 0.850, 0.819, 0.938, 0.576. A word-order model, a convolutional network over the frozen word vectors (300 filters of widths 1-3, max-pooled; a python3-torch prototype on the same rows and weights, not kept in the repository), alone scored 0.572, 0.797, 0.561, 0.803, 0.802, 0.902, 0.484 after 6 epochs, below the embedding bag everywhere, so it was not combined with it or served." +
    " A word-order model of the kind the other English classifiers now are (training/trainers/text-cnn.ts: these rows, weights and features, the word-vector means through 64 ReLU units, beside a convolution of 64 filters of widths 2-4 over the words; 5 epochs of Adam; 2026-11-27), after its temperature and label biases: tweets 0.667, SST-2 0.817, SST-5 0.576, multi-domain 0.836, Hu & Liu 0.831, Alexa 0.921, everyday 0.536; with 100 filters and 256 units no better on the trainer's own accuracies (tweets 0.679, movies falling over the epochs). It met the tweets target but lost on the reviews and on the everyday texts, so sentiment stayed an embedding bag until the same model with 3 epochs (training/recipes/sentiment.ts) did as well or better on most sets."
].join(' ')

const SENTIMENT_LABELS = ['negative', 'neutral', 'positive']
/** CLINC150 intents whose queries carry a feeling (thanks; a card lost, damaged, declined or blocked; lost luggage; fraud; disagreement, doubt): not neutral, so not among the neutral requests */
const FEELING_INTENTS = new Set([
  'thank_you',
  'card_declined',
  'report_lost_card',
  'damaged_card',
  'account_blocked',
  'lost_luggage',
  'report_fraud',
  'no',
  'maybe'
])
/** MIXED with the negation scope marked (lib/text/words/negation.ts): a feature for each word under negation, and the mean word vector of those words beside the mean of all */
export const SENTIMENT_FEATURES: FeatureConfig = { ...MIXED, negation: true, negatedVectors: true }
export const sentiment: OpSpec = {
  labels: SENTIMENT_LABELS,
  description:
    'Sentiment: negative, neutral, positive. Trained on a mixture of domains: tweets (SemEval 2013-2016), movie-review sentences and their phrases (the Stanford Sentiment Treebank train trees, five grades read as three), product and restaurant reviews (Hu & Liu customer reviews, the nine-product review sentences of Ding, Liu & Yu, Amazon Alexa reviews, multi-domain Amazon reviews of books, DVDs and electronics, SemEval-2014 restaurant and laptop review sentences), and questions and requests (TREC, CLINC150, SNIPS) as neutral.',
  notes: NOTES,
  features: SENTIMENT_FEATURES,
  vectors: true,
  train: { dim: 32, epochs: 8, lr: 0.2, seed: 7, balance: true, hidden: 64 },
  data: () => {
    const val = tweeteval('sentiment/tweeteval-sentiment', 'val')
    const sstVal = sst5('val')
    const crVal = customerReviews('val')
    const mdVal = multiDomainReviews('val')
    const alexaVal = amazonAlexa('val')
    // questions and requests to an assistant, read as neutral: CLINC150's validation queries (every 5th) measure it
    const requestsVal = clinc('val')
      .filter((r, i) => i % 5 === 0 && !FEELING_INTENTS.has(r.label))
      .map(r => ({ text: r.text, label: 'neutral' }))
    const held = [val, sstVal, crVal, mdVal, alexaVal, requestsVal]
    // the training rows read sets fetched into training/data (training/DATA.md): they are built only when
    // asked for, so that scoring the model (npm run eval, the calibration by input) needs the shared sets alone
    let built:
      | {
        mix: ReturnType<typeof sentimentMix>
        tweets: number
        movies: number
        reviews: number
        nine: number
        absa: number
        requests: number
      }
      | undefined
    const build = () => {
      if (built !== undefined) return built
      const tweets = withoutOverlap(semevalSentiment(), ...held)
      const movies = withoutOverlap(sst5('train'), ...held)
      const reviews = withoutOverlap(
        dedupe([...customerReviews('train'), ...amazonAlexa('train'), ...multiDomainReviews('train')]),
        ...held
      )
      const nine = withoutOverlap(dedupe(liuNineProducts()), ...held)
      const absa = withoutOverlap(
        dedupe([...absaSentences('Restaurants_Train_v2.xml'), ...absaSentences('Laptop_Train_v2.xml')]),
        ...held
      )
      // SENTIMENT_REQUESTS: their share of a domain (0: none; experiments)
      const share = Number(process.env.SENTIMENT_REQUESTS ?? '0.25')
      const requests =
        share > 0
          ? withoutOverlap(
            dedupe([...trec(), ...clinc('train').filter(r => !FEELING_INTENTS.has(r.label)), ...snips('train')]).map(
              r => ({ text: r.text, label: 'neutral' })
            ),
            ...held
          )
          : []
      const mix = sentimentMix({
        tweets,
        movies,
        reviews,
        extraReviews: dedupe([...nine, ...absa]),
        held: sstVal,
        requests: { rows: requests, share }
      })
      built = {
        mix,
        tweets: tweets.length,
        movies: movies.length,
        reviews: reviews.length,
        nine: nine.length,
        absa: absa.length,
        requests: requests.length
      }
      return built
    }
    const days = everyday().map(r => ({ text: r.text, label: r.sentiment }))
    const accuracy3 = (m: number[][]) => m.reduce((a, r, i) => a + r[i]!, 0) / m.flat().reduce((a, b) => a + b, 0)
    const binary = binaryAccuracy(0, 2)
    return {
      get train () {
        return build().mix.rows
      },
      domains: [
        { domain: 'tweets', validation: 0 },
        { domain: 'movies', validation: 1 },
        { domain: 'reviews', validation: 3 },
        { domain: 'requests', validation: 6 }
      ],
      validation: [
        {
          name: 'tweeteval-sentiment (SemEval tweets)',
          split: 'validation',
          rows: val,
          metric: {
            name: 'macro-averaged recall',
            score: m => macroRecall(m, [0, 1, 2]),
            baseline: 'target 0.66; fastText 0.629, SemEval-2017 best 0.681, RoBERTa 0.728; AFINN 0.575, VADER 0.559'
          }
        },
        {
          name: 'SST-2 movie-review sentences (positive vs negative)',
          split: 'dev',
          rows: sstVal.filter(r => r.label !== 'neutral'),
          metric: {
            name: 'binary accuracy',
            score: binary,
            baseline: 'target 0.85; fastText bigrams ~0.86, BERT-base 0.93'
          }
        },
        {
          name: 'SST-5 mapped to three classes',
          split: 'dev',
          rows: sstVal,
          metric: { name: 'macro-averaged recall', score: m => macroRecall(m, [0, 1, 2]), baseline: 'target 0.60' }
        },
        {
          name: 'multi-domain Amazon reviews (books, dvd, electronics)',
          split: 'hash 1/5',
          rows: mdVal,
          metric: { name: 'binary accuracy', score: binary, baseline: 'target 0.88; Blitzer 2007 in-domain 0.80-0.87' }
        },
        {
          name: 'Hu & Liu customer-review sentences',
          split: 'hash 1/5',
          rows: crVal,
          metric: { name: 'binary accuracy', score: binary, baseline: 'target 0.88; NBSVM 0.81' }
        },
        {
          name: 'Amazon Alexa reviews (1-2 vs 4-5 stars)',
          split: 'hash 1/5',
          rows: alexaVal.filter(r => r.label !== 'neutral'),
          metric: { name: 'binary accuracy', score: binary, baseline: 'target 0.88' }
        },
        {
          name: 'questions and requests (CLINC150 validation queries, every 5th)',
          split: 'validation',
          rows: requestsVal,
          metric: { name: 'share called neutral', score: shareCalled(1) }
        },
        {
          name: 'everyday texts written by the project (eval/data/everyday.jsonl; never trained on)',
          split: 'all',
          rows: days,
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
      ],
      get sources () {
        const b = build()
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
              'train trees only; trees whose sentence is a dev sentence, and phrases of 4+ tokens found in a dev sentence, left out',
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
            name: 'Nine-product review sentences (Ding, Liu & Yu 2008), polarity by the sign of their opinion strengths',
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
    }
  }
}

const GO = {
  neutral: 27,
  anger: 2,
  excitement: 13,
  fear: 14,
  gratitude: 15,
  joy: 17,
  sadness: 25,
  admiration: 0,
  disgust: 11,
  love: 18,
  optimism: 20
}
export const only = (rows: Array<{ text: string; ids: number[] }>, id: number) =>
  rows.filter(r => r.ids.length === 1 && r.ids[0] === id).map(r => r.text)

// Weak labels for Bored: no public set labels boredom. Texts that say so in words or hashtags.
export const BORED =
  /(^|[^\p{L}])(#?bored|#?boring|boredom|so dull|tedious|yawn+|nothing to do|monotonous|uninteresting)(?![\p{L}])/iu

const EMOTIONS = ['Fear', 'Happy', 'Angry', 'Sad', 'Excited', 'Bored']
/** how each set's labels map to the contract's six (labels not listed are left out) */
const CARER: Record<string, string> = {
  sadness: 'Sad',
  joy: 'Happy',
  love: 'Happy',
  anger: 'Angry',
  fear: 'Fear',
  surprise: 'Excited'
}
const TWEET_EMO: Record<string, string> = {
  anger: 'Angry',
  joy: 'Happy',
  optimism: 'Happy',
  sadness: 'Sad',
  fear: 'Fear'
}
const ISEAR: Record<string, string> = { joy: 'Happy', fear: 'Fear', anger: 'Angry', sadness: 'Sad', disgust: 'Angry' }
const mapped = (rows: Labelled[], map: Record<string, string>) =>
  rows.filter(r => map[r.label] !== undefined).map(r => ({ text: r.text, label: map[r.label] as string }))

export const emotion: OpSpec = {
  labels: EMOTIONS,
  description:
    'Emotion: Fear, Happy, Angry, Sad, Excited and Bored. Trained on a mixture of domains: Reddit comments (GoEmotions single-label rows), tweets (WASSA-2017, TweetEval emotion, dair-ai CARER), event descriptions (ISEAR) and product reviews (weak labels: 4-5 star and positive reviews Happy, 1-2 star and negative reviews Angry), plus weakly labelled Bored texts.',
  notes:
    'Label maps: GoEmotions fear, joy, anger, sadness, excitement; CARER sadness->Sad, joy and love->Happy, anger->Angry, fear->Fear, surprise->Excited; TweetEval anger->Angry, joy and optimism->Happy, sadness->Sad; WASSA anger, fear, joy->Happy, sadness; ISEAR joy->Happy, fear, anger and disgust->Angry, sadness (shame and guilt left out). Reviews carry no emotion labels: their polarity stands in (positive Happy, negative Angry), so that glowing reviews are not read as Sad or Fear; that is a weak label, and disappointment (Sad) in a review is not learned from it. Bored has no labelled data: texts that say it (bored, boring, tedious, yawn, nothing to do, #bored ...) are weak Bored labels, so its figure measures agreement with that rule.',
  features: MIXED,
  vectors: true,
  train: { dim: 32, epochs: 8, lr: 0.2, seed: 11, balance: true, hidden: 64 },
  data: () => {
    const tr = goemotions('train')
    const dev = goemotions('dev')
    const five = (rows: typeof tr) => [
      ...only(rows, GO.fear).map(text => ({ text, label: 'Fear' })),
      ...only(rows, GO.joy).map(text => ({ text, label: 'Happy' })),
      ...only(rows, GO.anger).map(text => ({ text, label: 'Angry' })),
      ...only(rows, GO.sadness).map(text => ({ text, label: 'Sad' })),
      ...only(rows, GO.excitement).map(text => ({ text, label: 'Excited' }))
    ]
    const boredPool = [...tr.map(r => r.text), ...semevalSentiment().map(r => r.text)]
      .filter(t => BORED.test(t))
      .map(text => ({ text, label: 'Bored' }))
    const bored = split(boredPool)
    const goVal = five(dev)
    const carerVal = mapped(dairEmotion('val'), CARER)
    const teVal = mapped(tweetevalEmotion('val'), TWEET_EMO)
    const held = [goVal, carerVal, teVal, bored.val]
    const reviewPolarity = (rows: Labelled[]) =>
      rows
        .filter(r => r.label !== 'neutral')
        .map(r => ({ text: r.text, label: r.label === 'positive' ? 'Happy' : 'Angry' }))
    const groups = [
      {
        domain: 'reddit',
        rows: withoutOverlap(
          five(tr).filter(r => !BORED.test(r.text)),
          ...held
        )
      },
      {
        domain: 'tweets',
        rows: withoutOverlap(
          [...mapped(wassaEmotion('train'), TWEET_EMO), ...mapped(tweetevalEmotion('train'), TWEET_EMO)],
          ...held
        )
      },
      { domain: 'carer', rows: withoutOverlap(mapped(dairEmotion('train'), CARER), ...held) },
      { domain: 'events', rows: mapped(isear('train'), ISEAR) },
      {
        domain: 'reviews',
        rows: reviewPolarity([...customerReviews('train'), ...amazonAlexa('train'), ...multiDomainReviews('train')]),
        share: 0.5
      },
      { domain: 'bored', rows: bored.train, share: 0.3 }
    ]
    const train = weighDomains(groups)
    const days = everyday()
      .filter(r => r.emotion !== null)
      .map(r => ({ text: r.text, label: r.emotion as string }))
    const mf = (labels: number[]) => (m: number[][]) => macroF1(m, labels)
    return {
      train,
      domains: [
        { domain: 'reddit', validation: 0 },
        { domain: 'tweets', validation: 1 },
        { domain: 'carer', validation: 2 }
      ],
      validation: [
        {
          name: 'GoEmotions single-label (fear, joy, anger, sadness, excitement)',
          split: 'dev',
          rows: goVal,
          metric: {
            name: 'macro F1 over Fear/Happy/Angry/Sad/Excited',
            score: mf([0, 1, 2, 3, 4]),
            baseline: 'target 0.70'
          }
        },
        {
          name: 'TweetEval emotion (anger, joy+optimism, sadness)',
          split: 'validation',
          rows: teVal,
          metric: {
            name: 'macro F1 over Angry/Happy/Sad',
            score: mf([1, 2, 3]),
            baseline: 'target 0.62; TweetEval RoBERTa 0.79 (4 labels, test)'
          }
        },
        {
          name: 'dair-ai CARER mapped (sadness, joy+love, anger, fear, surprise)',
          split: 'validation',
          rows: carerVal,
          metric: {
            name: 'macro F1 over Fear/Happy/Angry/Sad/Excited',
            score: mf([0, 1, 2, 3, 4]),
            baseline: 'target 0.70'
          }
        },
        {
          name: 'ISEAR mapped (joy, fear, anger+disgust, sadness)',
          split: 'hash 1/5',
          rows: mapped(isear('val'), ISEAR),
          metric: { name: 'macro F1 over Fear/Happy/Angry/Sad', score: mf([0, 1, 2, 3]) }
        },
        {
          name: 'weakly labelled Bored texts (held out)',
          split: 'hash 1/5',
          rows: bored.val,
          metric: { name: 'Bored recall', score: m => recall(m, 5) },
          calibration: false
        },
        {
          name: 'everyday texts written by the project, those with an emotion (never trained on)',
          split: 'all',
          rows: days,
          metric: {
            name: 'accuracy',
            score: m => m.reduce((a, r, i) => a + r[i]!, 0) / m.flat().reduce((a, b) => a + b, 0)
          },
          calibration: false
        }
      ],
      sources: [
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
          path: 'sentiment/customer-reviews-hu-liu, sentiment/amazon-alexa-reviews, sentiment/multi-domain-sentiment-blitzer2007',
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
  }
}
