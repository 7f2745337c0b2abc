// Fitting one language's NER tagger (training/recipes/ner.ts): sentences encoded as hashed token
// features, with the free O labels of partly labelled ones, and a tagger trained on silver plus gold
// sentences, quantised as served.
import { featurise, type NounForms } from '../../lib/text/ner/features.js'
import { quantise } from '../../lib/text/ner/tagger.js'
import { FOLDS, lexicons } from './ner-lexicon.js'
import { rng } from './sparse-sgd.js'
import { mentions, replaceMentions } from '../readers/ner-transforms.js'
import type { Sentence } from '../readers/ner.js'
import { SEED, type CvSource } from '../readers/ner-sources.js'
import { trainBagged } from './perceptron.js'
import type { Encoded, Prf, Tagger } from './perceptron-tagger.js'
import { BUCKETS, PARTIAL, log } from './ner-settings.js'
import { options } from '../readers/options.js'

const freeOf = (words: string[], nouns?: NounForms): Uint8Array | undefined => {
  if (PARTIAL === '0') return undefined
  return Uint8Array.from(words, w =>
    /^\p{Lu}/u.test(w) && (PARTIAL === 'cap' || nouns === undefined || !nouns.has(w)) ? 1 : 0
  )
}
export const encode = (
  s: Sentence[],
  lex: (i: number) => Uint8Array | undefined,
  nouns?: NounForms,
  partial?: (i: number) => boolean
): Encoded[] =>
  s.map((x, i) => {
    const free = partial?.(i) === true ? freeOf(x.words, nouns) : undefined
    return {
      ids: featurise(x.words, BUCKETS, lex(i), nouns),
      labels: x.labels,
      n: x.words.length,
      ...(free !== undefined ? { free } : {})
    }
  })

/** the gold sentences with their names replaced (fitWithGold), encoded, each with its source sentence's lexicon */
function mentionCopies (
  silver: Sentence[],
  gold: Sentence[],
  partial: boolean[],
  copies: number,
  lex: { full: Uint8Array; folds: Uint8Array[] } | undefined,
  nouns: NounForms | undefined,
  name: string
): Encoded[] {
  const which = options.nerDeAugpool
  const g = mentions(gold)
  const sv = mentions(silver.filter((_, i) => partial[i] === true))
  const pool = [0, 1, 2].map(k => [...(which !== 'silver' ? g[k]! : []), ...(which !== 'gold' ? sv[k]! : [])])
  const aug = replaceMentions(gold, pool, copies, rng(SEED + 23))
  const enc = aug.sents.map((x, i) => ({
    ids: featurise(x.words, BUCKETS, lex?.folds[(silver.length + (aug.from[i] as number)) % FOLDS], nouns),
    labels: x.labels,
    n: x.words.length,
    target: true
  }))
  log(
    `${name}: ${enc.length} gold sentences with names replaced ` +
      `(pool ${which}: ${pool.map(p => p.length).join('/')} PER/ORG/LOC)`
  )
  return enc
}

/**
 * A tagger trained for a fixed number of epochs on `silver` plus `gold` as cv says, with the
 * lexicon of both (out of fold for the training sentences); `heldOut` is encoded with the full one.
 */
export function fitWithGold (
  silver: Sentence[],
  gold: Sentence[],
  cv: CvSource,
  heldOut: Sentence[],
  lexicon: boolean,
  nouns: NounForms | undefined,
  epochs: number,
  name: string,
  partial: boolean[] = []
): {
    served: Tagger
    model: Tagger
    bytes: Uint8Array
    scale: number
    min: number
    lex?: Uint8Array
    va: Encoded[]
    history: Prf[]
  } {
  const sents = cv.repeat > 0 ? [...silver, ...gold] : silver
  const lex = lexicon ? lexicons(sents, i => (i < silver.length ? 1 : cv.lexiconWeight)) : undefined
  const tr = encode(
    sents,
    i => lex?.folds[i % FOLDS],
    nouns,
    i => partial[i] === true
  )
  if (PARTIAL !== '0') {
    const partly = tr.filter(d => d.free !== undefined).length
    const freeTokens = tr.reduce((a, d) => a + (d.free?.reduce((b, x) => b + x, 0) ?? 0), 0)
    log(`${name}: ${partly} partly labelled sentences, ${freeTokens} free O tokens (NER_DE_PARTIAL=${PARTIAL})`)
  }
  const goldEnc = tr.slice(silver.length)
  for (const d of goldEnc) d.target = true
  for (let r = 1; r < cv.repeat; r++) tr.push(...goldEnc)
  // mention replacement: NER_DE_AUG copies of each gold sentence with its names swapped for others of
  // the same type from the gold sentences (NER_DE_AUGPOOL=gold), the German silver ones (silver) or both
  const copies = options.nerDeAug
  if (copies > 0 && cv.repeat > 0) tr.push(...mentionCopies(silver, gold, partial, copies, lex, nouns, name))
  const va = encode(heldOut, () => lex?.full, nouns)
  const { model, history } = trainBagged(
    tr,
    va,
    { buckets: BUCKETS, epochs, seed: SEED, log, name, select: false, adapt: cv.adapt },
    cv.bag,
    cv.silverShare
  )
  const q = quantise(model.W)
  return {
    served: { ...model, W: q.dequantised },
    model,
    bytes: q.bytes,
    scale: q.scale,
    min: q.min,
    ...(lex !== undefined ? { lex: lex.full } : {}),
    va,
    history
  }
}
