// Readers for the cross-domain training sets in ../shared/datasets (sentiment, emotion, sarcasm,
// intent beyond tweets; the taxonomy sets are domains-taxonomy.ts's). Each returns the rows of one split;
// sets without a validation split use data.ts's fixed 1-in-5 hash split (hashSplit). Official test splits
// and the sets the datasets README holds out (the kitchen reviews, Enron6, Sarcasm V2 HYP) are never read
// here.
import { lines, tweeteval, norm, type Labelled } from './data.js'
import {
  readText,
  readGzip,
  records,
  hashSplit,
  squash,
  mailText,
  isearText,
  type Split,
  type DomainLabelled
} from './domains-parse.js'

export { hashSplit, labelCounts, type Split, type DomainLabelled } from './domains-parse.js'

export type Polarity = 'negative' | 'neutral' | 'positive'

/** Kim 2014 "<label> <tokenised sentence>" files. */
function kimLines (path: string): Array<{ grade: number; text: string }> {
  return lines(path).map(l => {
    const i = l.indexOf(' ')
    return { grade: Number(l.slice(0, i)), text: l.slice(i + 1).trim() }
  })
}

/** SST-2 movie-review sentences (lower-cased, tokenised): negative / positive. */
export function sst2 (part: Split): DomainLabelled[] {
  return kimLines(`sentiment/sst2-sentences/stsa.binary.${part === 'train' ? 'train' : 'dev'}`).map(r => ({
    text: r.text,
    label: r.grade === 1 ? 'positive' : 'negative',
    domain: 'movies'
  }))
}

/** SST-5: `grade` 0-4 (very negative .. very positive) and `label` 0-1 negative, 2 neutral, 3-4 positive. */
export function sst5 (part: Split): Array<DomainLabelled & { grade: number }> {
  return kimLines(`sentiment/sst5-sentences/stsa.fine.${part === 'train' ? 'train' : 'dev'}`).map(r => ({
    text: r.text,
    grade: r.grade,
    label: r.grade <= 1 ? 'negative' : r.grade === 2 ? 'neutral' : 'positive',
    domain: 'movies'
  }))
}

/** Hu & Liu customer-review sentences (cameras, MP3 and DVD players, phones): negative / positive; hash split. */
export function customerReviews (part: Split): DomainLabelled[] {
  const rows = kimLines('sentiment/customer-reviews-hu-liu/custrev.all').map(r => ({
    text: r.text,
    label: r.grade === 1 ? 'positive' : 'negative',
    domain: 'product-sentences'
  }))
  return hashSplit(rows, part)
}

export const starsToPolarity = (stars: number): Polarity =>
  stars <= 2 ? 'negative' : stars === 3 ? 'neutral' : 'positive'

/**
 * Amazon Alexa (Echo) reviews: `stars` 1-5 and `label` 1-2 negative, 3 neutral, 4-5 positive; empty reviews
 * dropped; hash split.
 */
export function amazonAlexa (part: Split): Array<DomainLabelled & { stars: number }> {
  const [, ...rows] = records(readText('sentiment/amazon-alexa-reviews/amazon_alexa.tsv'), '\t')
  const out = rows
    .map(f => ({ stars: Number(f[0]), text: squash(f[3] ?? ''), domain: 'smart-speaker' }))
    .filter(r => r.text !== '' && r.stars >= 1 && r.stars <= 5)
    .map(r => ({ ...r, label: starsToPolarity(r.stars) }))
  return hashSplit(out, part)
}

export type ReviewDomain = 'books' | 'dvd' | 'electronics'

/** The value of each <tag> block of a Blitzer review. */
function reviewField (block: string, tag: string): string {
  const m = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(block)
  return squash(m?.[1] ?? '')
}

/**
 * Multi-domain Amazon reviews (Blitzer 2007), books / dvd / electronics only: title + review text, negative /
 * positive, `stars`; hash split.
 */
export function multiDomainReviews (
  part: Split,
  domains: ReviewDomain[] = ['books', 'dvd', 'electronics']
): Array<DomainLabelled & { stars: number }> {
  const out: Array<DomainLabelled & { stars: number }> = []
  for (const domain of domains) {
    for (const label of ['negative', 'positive'] as const) {
      // control characters in the DVD reviews (the source's encoding errors) become spaces
      const file = `sentiment/multi-domain-sentiment-blitzer2007/${domain}/${label}.review`
      // eslint-disable-next-line no-control-regex
      const raw = readText(file).replace(/[\x00-\x08\x0b\x0c\x0e-\x1f]/g, ' ')
      for (const block of raw.split('<review>').slice(1)) {
        const title = reviewField(block, 'title')
        const body = reviewField(block, 'review_text')
        const text = title === '' ? body : /[.!?]$/.test(title) ? `${title} ${body}` : `${title}. ${body}`
        if (text !== '') out.push({ text, label, domain, stars: Number(reviewField(block, 'rating')) })
      }
    }
  }
  return hashSplit(out, part)
}

/** dair-ai / CARER tweets (lower-cased, no punctuation): sadness joy love anger fear surprise. */
export function dairEmotion (part: Split): Labelled[] {
  return lines(`emotion/dair-ai-emotion-carer/${part}.txt`)
    .slice(1)
    .map(l => {
      const i = l.lastIndexOf(';')
      return { text: l.slice(0, i), label: l.slice(i + 1).trim() }
    })
}

/**
 * WASSA-2017 EmoInt tweets: anger fear joy sadness (the file's emotion) with `intensity` 0-1; val = the dev
 * gold files.
 */
export function wassaEmotion (part: Split): Array<Labelled & { intensity: number }> {
  const out: Array<Labelled & { intensity: number }> = []
  for (const emo of ['anger', 'fear', 'joy', 'sadness']) {
    const file = part === 'train' ? `train/${emo}-ratings-0to1.train.txt` : `dev/${emo}-ratings-0to1.dev.gold.txt`
    for (const l of lines(`emotion/wassa2017-emoint/${file}`)) {
      const f = l.split('\t')
      if (f.length < 4) continue
      out.push({ text: (f[1] as string).trim(), label: (f[2] as string).trim(), intensity: Number(f[3]) })
    }
  }
  return out
}

/** TweetEval emotion (SemEval-2018 Affect in Tweets): anger joy optimism sadness. */
export function tweetevalEmotion (part: Split): Labelled[] {
  return tweeteval('emotion/tweeteval-emotion', part)
}

/**
 * ISEAR self-reported situations: joy fear anger sadness disgust shame guilt; "[ No response.]"-style
 * non-answers dropped; hash split.
 */
export function isear (part: Split): Labelled[] {
  const [head = '', ...rows] = lines('emotion/isear/isear.csv')
  const h = head.split('|')
  const sit = h.indexOf('SIT')
  const emo = h.indexOf('Field1')
  const out: Labelled[] = []
  for (const l of rows) {
    const f = l.split('|')
    // The text may itself hold "|" (a wrapped line): it runs from SIT to the last two fields (STATE, '').
    const text = isearText(f.slice(sit, f.length - 2).join(' '))
    const label = (f[emo] ?? '').trim()
    if (
      label === '' ||
      text.length < 4 ||
      /^\[.*\]$/.test(text) ||
      /^(none|nothing|not applicable|no response)\.?$/i.test(text)
    ) {
      continue
    }
    out.push({ text, label })
  }
  return hashSplit(out, part)
}

/**
 * iSarcasmEval (SemEval-2022 task 6) English train, author-labelled: sarcastic / not; `rephrase` = the
 * author's literal rewording; hash split.
 */
export function isarcasm (part: Split): Array<Labelled & { rephrase?: string }> {
  const [, ...rows] = records(readText('sarcasm/isarcasmeval-semeval2022-en/train/train.En.csv'))
  const out = rows
    .filter(f => (f[1] ?? '').trim() !== '')
    .map(f => {
      const r: Labelled & { rephrase?: string } = {
        text: (f[1] as string).trim(),
        label: f[2] === '1' ? 'sarcastic' : 'not'
      }
      const re = (f[3] ?? '').trim()
      if (re !== '') r.rephrase = re
      return r
    })
  return hashSplit(out, part)
}

/**
 * Sarcasm Corpus V2 debate-forum posts, GEN and RQ parts only (never HYP): sarcastic / not, `domain` GEN|RQ;
 * RQ rows already in GEN dropped; hash split.
 */
export function sarcasmV2 (part: Split, parts: Array<'GEN' | 'RQ'> = ['GEN', 'RQ']): DomainLabelled[] {
  const seen = new Set<string>()
  const out: DomainLabelled[] = []
  for (const p of parts) {
    const [, ...rows] = records(readText(`sarcasm/sarcasm-corpus-v2-oraby2016/${p}-sarc-notsarc.csv`))
    for (const f of rows) {
      const text = squash(f.slice(2).join(','))
      const key = norm(text)
      if (text === '' || seen.has(key)) continue
      seen.add(key)
      out.push({ text, label: f[0] === 'sarc' ? 'sarcastic' : 'not', domain: p })
    }
  }
  return hashSplit(out, part)
}

/**
 * Enron-Spam enron1-5 (never enron6): ham / spam, text = subject, newline, first ~600 body characters without
 * header lines; exact repeats dropped; hash split.
 */
export function enronSpam (
  part: Split,
  folders: Array<1 | 2 | 3 | 4 | 5> = [1, 2, 3, 4, 5],
  maxBody = 600
): DomainLabelled[] {
  const seen = new Set<string>()
  const out: DomainLabelled[] = []
  for (const n of folders) {
    for (const l of readGzip(`intent/enron-spam/enron${n}.jsonl.gz`).split('\n')) {
      if (l === '') continue
      const d = JSON.parse(l) as { label: string; text: string }
      const text = mailText(d.text, maxBody)
      const key = norm(text)
      if (text === '' || seen.has(key)) continue
      seen.add(key)
      out.push({ text, label: d.label, domain: `enron${n}` })
    }
  }
  return hashSplit(out, part)
}

export const SNIPS_INTENTS = [
  'AddToPlaylist',
  'BookRestaurant',
  'GetWeather',
  'PlayMusic',
  'RateBook',
  'SearchCreativeWork',
  'SearchScreeningEvent'
] as const

/**
 * SNIPS 2017 voice-assistant commands, 7 intents (slot annotations joined back into text); val = the
 * validate_ files.
 */
export function snips (part: Split): Labelled[] {
  const out: Labelled[] = []
  for (const intent of SNIPS_INTENTS) {
    const file = part === 'train' ? `train_${intent}_full.json` : `validate_${intent}.json`
    const d = JSON.parse(readText(`intent/snips-2017/${file}`)) as Record<
      string,
      Array<{ data: Array<{ text: string }> }>
    >
    for (const q of d[intent] ?? []) out.push({ text: squash(q.data.map(x => x.text).join('')), label: intent })
  }
  return out
}

/**
 * SemEval-2014 ABSA train sentences (restaurants, laptops) with a sentence polarity: the one polarity
 * their aspect terms and categories share once neutral ones are set aside (neutral when every one is
 * neutral); sentences with a conflict, with both polarities or with no aspect are left out.
 */
export function absaSentences (file: 'Restaurants_Train_v2.xml' | 'Laptop_Train_v2.xml'): DomainLabelled[] {
  const out: DomainLabelled[] = []
  const domain = file.startsWith('Rest') ? 'restaurants' : 'laptops'
  for (const s of readText(`target-sentiment/semeval2014-absa/${file}`).split('<sentence ').slice(1)) {
    const text = /<text>([\s\S]*?)<\/text>/.exec(s)?.[1]
    if (text === undefined) continue
    const pols = new Set([...s.matchAll(/polarity="(\w+)"/g)].map(m => m[1] as string))
    if (pols.size === 0 || pols.has('conflict') || (pols.has('positive') && pols.has('negative'))) continue
    const label = pols.has('positive') ? 'positive' : pols.has('negative') ? 'negative' : 'neutral'
    out.push({
      text: squash(
        text
          .replace(/&quot;/g, '"')
          .replace(/&apos;/g, "'")
          .replace(/&amp;/g, '&')
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
      ),
      label,
      domain
    })
  }
  return out
}
