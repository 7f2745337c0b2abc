// Sentiment's training rows: tweets, movie sentences and phrases, reviews and neutral requests mixed by
// domain (training/readers/sentiment.ts sentimentMix), every text of a validation set left out. They read sets
// fetched into training/data (training/DATA.md), so sentiment's spec builds them only when asked for.
import { clinc, semevalSentiment, trec, withoutOverlap, type Labelled } from '../readers/data.js'
import { absaSentences, amazonAlexa, customerReviews, multiDomainReviews, snips, sst5 } from '../readers/domains.js'
import { liuNineProducts, sentimentMix } from '../readers/sentiment.js'
import { dedupe } from '../trainers/mix.js'
import { options } from '../readers/options.js'

/**
 * CLINC150 intents whose queries carry a feeling (thanks; a card lost, damaged, declined or blocked; lost
 * luggage; fraud; disagreement, doubt): not neutral, so not among the neutral requests
 */
export const FEELING_INTENTS = new Set([
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

/** the mixture and the number of rows each source gave it (sentiment's sources list them) */
export interface SentimentRows {
  mix: ReturnType<typeof sentimentMix>
  tweets: number
  movies: number
  reviews: number
  nine: number
  absa: number
  requests: number
}

/** the training mixture, without the texts of `held` (the validation sets); `sstVal` keeps dev phrases out */
export function sentimentRows (held: Labelled[][], sstVal: Labelled[]): SentimentRows {
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
  const share = options.sentimentRequests
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
  return {
    mix,
    tweets: tweets.length,
    movies: movies.length,
    reviews: reviews.length,
    nine: nine.length,
    absa: absa.length,
    requests: requests.length
  }
}
