// Taxonomy: IAB Content Taxonomy 3.1 tier-1 categories, one independent score per tag, trained on
// news articles (BBC, AG News), HuffPost headlines, DBpedia abstracts and CLINC150 requests, with
// texts that fit no category (small talk, device commands, personal SMS) as negatives for every tag.
// Its tags and their IAB names are in taxonomy-tags.ts, its validation sets and sources in taxonomy-sets.ts.
import { bbc, clinc, fetched, smsSpam, split, withoutOverlap, type Labelled } from '../readers/data.js'
import {
  absaSentences,
  amazonAlexa,
  customerReviews,
  hashSplit,
  multiDomainReviews,
  type Split
} from '../readers/domains.js'
import { agNews20k, dbpedia14, huffpost } from '../readers/domains-taxonomy.js'
import { records } from '../readers/domains-parse.js'
import { dedupe, everyday, weighDomains } from '../trainers/mix.js'
import type { OpSpec } from './op-spec.js'
import { taxonomySources, taxonomyValidation } from './taxonomy-sets.js'
import { iabTags, TAGS } from './taxonomy-tags.js'
import { options } from '../readers/options.js'

/** each training set's labels as tags (labels not listed carry no tier-1 topic of their own and are left out) */
export const MAPS = {
  bbc: { business: 'BUSINESS', entertainment: 'ENTERTAINMENT', politics: 'POLITICS', sport: 'SPORTS', tech: 'TECH' },
  ag: { World: 'POLITICS', Sports: 'SPORTS', Business: 'BUSINESS', 'Sci/Tech': 'TECH' },
  huffpost: {
    POLITICS: 'POLITICS',
    'THE WORLDPOST': 'POLITICS',
    WORLDPOST: 'POLITICS',
    'WORLD NEWS': 'POLITICS',
    WELLNESS: 'HEALTH',
    'HEALTHY LIVING': 'HEALTH',
    ENTERTAINMENT: 'ENTERTAINMENT',
    COMEDY: 'ENTERTAINMENT',
    TRAVEL: 'TRAVEL',
    'STYLE & BEAUTY': 'STYLE',
    STYLE: 'STYLE',
    PARENTING: 'FAMILY',
    PARENTS: 'FAMILY',
    DIVORCE: 'FAMILY',
    'FOOD & DRINK': 'FOOD',
    TASTE: 'FOOD',
    BUSINESS: 'BUSINESS',
    SPORTS: 'SPORTS',
    'HOME & LIVING': 'HOME',
    WEDDINGS: 'LIFE_EVENTS',
    CRIME: 'CRIME',
    RELIGION: 'RELIGION',
    SCIENCE: 'SCIENCE',
    GREEN: 'SCIENCE',
    ENVIRONMENT: 'SCIENCE',
    TECH: 'TECH',
    MONEY: 'PERSONAL_FINANCE',
    ARTS: 'FINE_ART',
    'ARTS & CULTURE': 'FINE_ART',
    'CULTURE & ARTS': 'FINE_ART',
    COLLEGE: 'EDUCATION',
    EDUCATION: 'EDUCATION'
  },
  dbpedia: {
    Company: 'BUSINESS',
    EducationalInstitution: 'EDUCATION',
    Artist: 'ENTERTAINMENT',
    Athlete: 'SPORTS',
    OfficeHolder: 'POLITICS',
    Album: 'ENTERTAINMENT',
    Film: 'ENTERTAINMENT',
    WrittenWork: 'BOOKS'
  },
  clinc: {
    TRAVEL: [
      'book_flight', 'book_hotel', 'car_rental', 'travel_suggestion', 'travel_alert', 'travel_notification', 'carry_on',
      'timezone', 'vaccines', 'flight_status', 'international_visa', 'lost_luggage', 'plug_type', 'exchange_rate'
    ],
    FOOD: [
      'recipe', 'restaurant_reviews', 'calories', 'nutrition_info', 'restaurant_suggestion', 'ingredients_list',
      'ingredient_substitution', 'cook_time', 'food_last', 'meal_suggestion', 'restaurant_reservation',
      'confirm_reservation', 'how_busy', 'cancel_reservation', 'accept_reservations'
    ],
    AUTOMOTIVE: [
      'gas', 'gas_type', 'mpg', 'oil_change_when', 'oil_change_how', 'jump_start', 'schedule_maintenance',
      'last_maintenance', 'tire_pressure', 'tire_change'
    ],
    PERSONAL_FINANCE: [
      'transfer', 'transactions', 'balance', 'freeze_account', 'pay_bill', 'bill_balance', 'bill_due', 'interest_rate',
      'routing', 'min_payment', 'order_checks', 'pin_change', 'report_fraud', 'account_blocked', 'spending_history',
      'credit_score', 'report_lost_card', 'credit_limit', 'rewards_balance', 'new_card', 'apr', 'redeem_rewards',
      'improve_credit_score', 'rollover_401k', 'taxes', 'income', 'direct_deposit', 'w2', 'insurance'
    ],
    CAREERS: [
      'pto_balance', 'pto_request', 'pto_request_status', 'pto_used', 'payday', 'meeting_schedule', 'schedule_meeting'
    ],
    NONE: [
      'greeting', 'goodbye', 'yes', 'no', 'maybe', 'thank_you', 'are_you_a_bot', 'how_old_are_you', 'what_is_your_name',
      'where_are_you_from', 'what_are_your_hobbies', 'who_made_you', 'alarm', 'timer', 'time', 'date', 'calculator',
      'flip_coin', 'roll_dice', 'repeat', 'spelling', 'change_volume', 'change_speed', 'change_accent',
      'change_ai_name', 'change_user_name', 'reminder', 'reminder_update', 'todo_list', 'todo_list_update', 'make_call',
      'text', 'whisper_mode', 'cancel', 'user_name', 'sync_device', 'reset_settings', 'find_phone', 'share_location'
    ]
  } as Record<string, string[]>
}

/** a training text on one line, at most 1,500 characters */
const clip = (text: string) => text.replace(/\s+/g, ' ').slice(0, 1500)
const mapRows = (rows: Labelled[], map: Record<string, string>) =>
  rows.filter(r => map[r.label] !== undefined).map(r => ({ text: clip(r.text), label: map[r.label] as string }))
const clincTag = new Map(Object.entries(MAPS.clinc).flatMap(([t, intents]) => intents.map(i => [i, t] as const)))
const fromClinc = (part: 'train' | 'val') =>
  clinc(part)
    .filter(r => clincTag.has(r.label))
    .map(r => ({ text: r.text, label: clincTag.get(r.label) as string }))

/** at most `max` rows, spread evenly over the whole source */
const atMost = <T>(rows: T[], max: number) =>
  rows.length <= max
    ? rows
    : Array.from({ length: Math.max(0, Math.floor(max)) }, (_, j) => rows[Math.floor((j * rows.length) / max)] as T)

/**
 * a review of fewer words than this says nothing of a topic ("love it", "works great"): it is trained as fitting
 * no tag
 */
const MIN_WORDS = 5
const words = (text: string) => text.split(/\s+/).filter(w => /\p{L}/u.test(w)).length

/**
 * Reviews whose source gives their topic: restaurant sentences FOOD, books BOOKS, DVDs ENTERTAINMENT,
 * laptop and electronics reviews, Alexa speakers and the Hu & Liu cameras, MP3 and DVD players and
 * phones TECH (each TECH source cut so that TECH does not fill the domain); each source once per text,
 * and the product reviews of fewer than MIN_WORDS words labelled NONE. A review's topic is its product's, so a
 * review of a blender is not BUSINESS for its prices and delivery.
 */
export function topicReviews (part: Split, max = Infinity): Labelled[] {
  // short: the sources whose short reviews are general praise or blame (the SemEval-2014 sentences each
  // name an aspect of the restaurant or laptop, such as its food or its screen, and keep their tag)
  const tagged = (rows: Labelled[], label: string, cap: number, short = false) =>
    atMost(dedupe(rows), Math.min(cap, max)).map(r => {
      const text = clip(r.text)
      return { text, label: short && words(text) < MIN_WORDS ? 'NONE' : label }
    })
  return [
    ...tagged(hashSplit(absaSentences('Restaurants_Train_v2.xml'), part), 'FOOD', Infinity),
    ...tagged(multiDomainReviews(part, ['books']), 'BOOKS', Infinity, true),
    ...tagged(multiDomainReviews(part, ['dvd']), 'ENTERTAINMENT', Infinity, true),
    ...tagged(hashSplit(absaSentences('Laptop_Train_v2.xml'), part), 'TECH', 600),
    ...tagged(multiDomainReviews(part, ['electronics']), 'TECH', 600, true),
    ...tagged(amazonAlexa(part), 'TECH', 300, true),
    ...tagged(customerReviews(part), 'TECH', 300, true)
  ]
}

/** TripAdvisor hotel reviews (the first 500 of Alam et al.'s set; training/DATA.md) as TRAVEL: training only */
export function hotelReviews (): Labelled[] {
  const [, ...rows] = records(fetched('tripadvisor-hotels/tripadvisor_hotel_reviews.csv'))
  return rows
    .filter(f => (f[0] ?? '').trim() !== '')
    .map(f => ({ text: clip((f[0] as string).trim()), label: 'TRAVEL' }))
}

export const taxonomy: OpSpec = {
  labels: TAGS,
  description:
    `IAB Content Taxonomy 3.1 tier-1 topics, ${TAGS.length} tags, one independent probability each ` +
    '(a text that fits none scores low everywhere). Trained on BBC News, AG News, HuffPost headlines, DBpedia ' +
    'abstracts, CLINC150 requests and reviews whose source gives their topic (restaurants, hotels, books, DVDs, ' +
    'electronics); small talk, device commands and personal SMS messages are negatives for every tag.',
  notes:
    'Label maps (training/specs/taxonomy.ts MAPS): BBC business, entertainment, politics, sport, tech; AG News World ' +
    '-> POLITICS, Sports, Business, Sci/Tech -> TECH; HuffPost 33 of its 41 categories (POLITICS and the world-news ' +
    'ones -> POLITICS, WELLNESS and HEALTHY LIVING -> HEALTH, COMEDY -> ENTERTAINMENT, PARENTING, PARENTS, DIVORCE ' +
    '-> FAMILY, WEDDINGS -> LIFE_EVENTS, GREEN and ENVIRONMENT -> SCIENCE, MONEY -> PERSONAL_FINANCE, the arts ones ' +
    '-> FINE_ART, COLLEGE -> EDUCATION; the identity, IMPACT, FIFTY, GOOD NEWS, WEIRD NEWS and MEDIA sections have ' +
    'no tier-1 topic of their own and are left out); DBpedia Company, EducationalInstitution, Artist, Athlete, ' +
    'OfficeHolder, Album, Film, WrittenWork (places, buildings, vehicles, animals and plants left out); CLINC150 ' +
    'travel, kitchen and dining, auto, banking and credit card, and work intents. PETS, REAL_ESTATE, SHOPPING, ' +
    'VIDEO_GAMING and the other tier-1 topics have no training data here and are not offered. Reviews ' +
    '(training/specs/taxonomy.ts topicReviews, hotelReviews) take the topic of their product: SemEval-2014 ' +
    'restaurant sentences FOOD, TripAdvisor hotel reviews TRAVEL, multi-domain Amazon books BOOKS, DVDs ' +
    'ENTERTAINMENT, electronics TECH, and SemEval-2014 laptop sentences, Alexa and Hu & Liu reviews TECH (the TECH ' +
    'sources cut to 600, 600, 300 and 300 rows, spread over each source, so that TECH does not fill the domain); ' +
    'product reviews of fewer than 5 words ("love it", "works great") say nothing of a topic and are trained as ' +
    'fitting no tag (the SemEval-2014 sentences each name an aspect, such as the food or the screen, and keep their ' +
    'tag); they weigh half a domain. The hotel reviews are all training rows, so TRAVEL on reviews is measured only ' +
    'by the everyday texts. Before them a review was read by its talk of prices, staff and delivery (a blender ' +
    'review BUSINESS 0.59, a burger restaurant SPORTS, hotels BUSINESS or POLITICS): top-1 on their validation fifth ' +
    '0.52 FOOD, 0.20 BOOKS, 0.70 ENTERTAINMENT, 0.61 TECH. Reviews of things no training review is about (furniture, ' +
    'tools, clothes, prams) now lean to TECH, at low scores. HuffPost headlines are lower-cased and tokenised in ' +
    'this copy. BBC articles weigh as a group of their own beside AG News (both are the news domain, left out ' +
    'together), and HuffPost twice a domain (1.5 before): top-1 before the calibration by input BBC 0.930 -> 0.957, ' +
    'AG News 0.887 -> 0.892, HuffPost 0.614 -> 0.619, CLINC150 0.977 -> 0.979, DBpedia 0.960 -> 0.950 (seed 24: BBC ' +
    '0.954, DBpedia 0.957). Not kept: BBC apart alone (BBC 0.948, HuffPost 0.612, DBpedia 0.951); BBC at 0.4 of a ' +
    'domain with HuffPost twice (BBC 0.948); dim 32 instead of 24 (BBC 0.954, HuffPost 0.612). The word-vector mean ' +
    'through 256 ReLU units (64 before): top-1 before the calibration by input HuffPost 0.619 -> 0.627, BBC 0.957 -> ' +
    '0.959, AG News 0.892 -> 0.893, DBpedia 0.950 -> 0.950, CLINC150 0.979 -> 0.979, no tag 0.922 -> 0.929 (seed 24: ' +
    'HuffPost 0.613 -> 0.621, AG News 0.887 -> 0.895, BBC 0.954 -> 0.954, DBpedia 0.957 -> 0.953). Not kept: 512 ' +
    'units (HuffPost 0.629, BBC 0.951), 128 (HuffPost 0.625), 15 epochs (HuffPost 0.611), lr 0.5 (HuffPost 0.608). ' +
    'Tried for HuffPost (issue 20) and not kept, none keeping BBC at its target: a word-order model (a text-cnn as ' +
    'abuse and sarcasm are, trained in an experiment whose code was not kept: the same n-gram bag beside a 1-D ' +
    'convolution over the shared word vectors, 64 filters of widths 2-4, one sigmoid per tag, 6 epochs of Adam lr ' +
    "0.002, the bag's lr 0.02; 8.2 MB) after its temperature and tag biases BBC 0.936, AG News 0.883, HuffPost " +
    '0.661, DBpedia 0.945, CLINC150 0.981, no tag 0.951 (its raw logits: BBC 0.948, HuffPost 0.658; ECE after a ' +
    'calibration by input BBC 0.055, AG News 0.034, HuffPost 0.062, DBpedia 0.028, CLINC150 0.077, no tag 0.128; ' +
    "left out, 2 epochs, AG News 0.420, HuffPost 0.176, DBpedia 0.616); its variants, raw logits: the bag's lr 0.002 " +
    '(BBC 0.922, AG News 0.873, HuffPost 0.639, DBpedia 0.944), 0.05 (5 of 6 epochs: BBC 0.936, HuffPost 0.636, ' +
    'DBpedia 0.933), plain SGD at 10 (BBC 0.910, HuffPost 0.595), 8 epochs (BBC 0.942, HuffPost 0.654, DBpedia ' +
    '0.936), dropout 0.5 (BBC 0.910, HuffPost 0.640), 256 tokens (4 of 6 epochs: BBC 0.916, HuffPost 0.641). ' +
    'HuffPost short descriptions: this copy has headlines only, and the copy that has them (2018-2022 articles) is ' +
    'held out.',
  features: { buckets: 1 << 17, charNgrams: [], wordBigrams: true, maxFeatures: 3000, maxChars: 6000 },
  vectors: true,
  train: { dim: 24, epochs: 10, lr: 0.3, seed: 23, balance: true, multiLabel: true, hidden: 256 },
  data: () => {
    const news = split(mapRows(bbc(), MAPS.bbc))
    const agVal = mapRows(agNews20k('val'), MAPS.ag)
    const hpVal = mapRows(huffpost('val'), MAPS.huffpost)
    const dbVal = mapRows(dbpedia14('val'), MAPS.dbpedia)
    const sms = split(
      smsSpam()
        .filter(r => r.label === 'ham')
        .map(r => ({ text: r.text, label: 'NONE' }))
    )
    const clincVal = fromClinc('val')
    const held = [news.val, agVal, hpVal, dbVal, clincVal]
    const train = weighDomains([
      // BBC articles weigh as a group of their own (their 1,800 rows were swamped by 16,000 AG News
      // items); both groups are the news domain, left out together
      { domain: 'news', rows: withoutOverlap(mapRows(agNews20k('train'), MAPS.ag), ...held) },
      { domain: 'news', rows: withoutOverlap(news.train, ...held) },
      { domain: 'huffpost', rows: mapRows(huffpost('train'), MAPS.huffpost), share: 2 },
      { domain: 'dbpedia', rows: mapRows(dbpedia14('train'), MAPS.dbpedia) },
      { domain: 'requests', rows: fromClinc('train') },
      // TAXONOMY_REVIEWS: the reviews' share of a domain, for experiments (default half)
      {
        domain: 'reviews',
        rows: withoutOverlap([...topicReviews('train'), ...hotelReviews()], ...held),
        share: options.taxonomyReviews
      },
      { domain: 'none', rows: sms.train, share: 0.5 }
    ])
    const reviewsVal = topicReviews('val', 150).filter(r => r.label !== 'NONE')
    const days = everyday().map(r => ({ text: r.text, label: TAGS.includes(r.topic) ? r.topic : 'NONE' }))
    return {
      train,
      domains: [
        { domain: 'news', validation: 1 },
        { domain: 'huffpost', validation: 2 },
        { domain: 'dbpedia', validation: 3 },
        { domain: 'reviews', validation: 6 }
      ],
      validation: taxonomyValidation({
        news: news.val,
        agVal,
        hpVal,
        dbVal,
        clincVal,
        smsVal: sms.val,
        reviewsVal,
        days,
        minWords: MIN_WORDS
      }),
      sources: taxonomySources()
    }
  },
  get tags () {
    return iabTags()
  }
}
