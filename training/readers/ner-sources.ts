// Where the NER tagger of each language learns from (LANGS): its training corpora, its validation
// set or cross-validated gold data, epochs and which lexicon features it uses, with the notes of the
// experiments that chose German's mix of silver and other-language data. Read by training/recipes/ner.ts.
import { rng } from '../trainers/sparse-sgd.js'
import {
  wnut17,
  conll2002,
  conll2003,
  europeana,
  germevalDev,
  germevalDevSources,
  wikiann,
  type Sentence
} from './ner.js'
import { caseVariants, clearCommonNouns } from './ner-transforms.js'
import { options } from './options.js'

/** the seed of every random choice of NER training */
export const SEED = 20141

/** `partial`: silver data whose O labels may hide names nobody marked (Encoded.free in ner-perceptron.ts) */
export interface Source {
  name: string
  path: string
  licence: string
  split: string
  read: () => Sentence[]
  partial?: boolean
}
/**
 * A language has a validation set (`val`: epochs, temperature and thresholds are chosen on it) or,
 * lacking gold training data of its own, gold data it both trains on and is measured on by K-fold
 * cross-validation (`cv`, folds by `groups`): its sentences are `repeat` times among the training
 * data, count `lexiconWeight` times in the lexicon and, with `adapt`, have target-domain weights of
 * their own (TrainOpts.adapt in ner-perceptron.ts).
 */
export interface CvSource extends Source {
  baseline: string
  groups: () => string[]
  folds: number
  repeat: number
  lexiconWeight: number
  adapt: boolean
  /** perceptrons averaged (trainBagged in ner-perceptron.ts) */ bag: number
  /** each bagged one's random share of the silver sentences */ silverShare: number
}
export interface LangSpec {
  train: Source[]
  val?: Source & { baseline: string }
  cv?: CvSource
  epochs: number
  lexicon: boolean
  /** German common-noun forms as a feature (germanNouns) */ nouns?: boolean
  /** English words mostly written in lower case, and the name lists, as a feature (lowerCaseWords) */
  lowerWords?: boolean
}

const CONLL03 = { path: 'ner/conll2003-en', licence: 'research use only (Reuters RCV1 agreement)' }
const CONLL02 = { path: 'ner/conll2002-es-nl', licence: 'research use only, not commercial (CoNLL-2002 README)' }
const WIKIANN = {
  name: 'WikiANN German (silver, Babelscape/wikineural copy)',
  path: 'ner/wikiann-de-silver',
  licence: 'CC BY-NC-SA 4.0 (wikineural); WikiANN states none'
}
const ENP = { path: 'ner/europeana-newspapers-de-nl', licence: 'CC0 1.0' }
const WNUT = { path: 'ner/wnut17-emerging-entities', licence: 'CC BY 4.0' }
// English beyond newswire: social media (WNUT-17) and lower-case and capitals copies of a share of
// every English sentence (NER_EN_LOWER, NER_EN_UPPER), seeded
const enCased = () =>
  caseVariants(
    [...conll2003('eng.train'), ...wnut17('wnut17train.conll')],
    options.nerEnLower,
    options.nerEnUpper,
    rng(SEED + 1)
  )

// WikiANN is mostly title-like fragments dense with names (a third of their tokens); its full
// sentences look more like running text (tried as source 6, no better)
const sentenceLike = (s: Sentence) =>
  s.words.length >= 8 &&
  ['.', '!', '?'].includes(s.words[s.words.length - 1] as string) &&
  !s.words.includes('WEITERLEITUNG')

// The only gold German data in GermEval's domain (news and Wikipedia) is GermEval dev itself, so
// silver and other-language data make up most of the training. Silver only, GermEval dev F1 on the
// corpus tokens before thresholds, by source mix: WikiANN alone 0.41 (precision 0.34), with
// Europeana 0.52, with Dutch CoNLL as well 0.57, with English and Spanish CoNLL, all three with
// German-style capitalised nouns, 0.59 (sources 0-4); without Europeana 0.50; WikiANN sentences
// only, doubled CoNLL or doubled Europeana within 0.01; WikiANN with its linked common nouns cleared
// (source 7 instead of 0) 0.60, 0.617 after thresholds fitted on dev itself.
// With GermEval dev in training, 5-fold cross-validated F1 (pooled, thresholds from the other
// folds; +-0.005 is noise): that silver-only tagger 0.613; dev folds once 0.635, 3 times 0.642, 10
// times 0.645, 25 times 0.651; with target-domain weights (adapt) 3 times 0.669, 10 times 0.662;
// then, 8 epochs: without CoNLL en/es 0.655, without all CoNLL 0.650, without WikiANN 0.630, adding
// Dutch Europeana (5) 0.669, dev counted 3 times in the lexicon 0.670 (20 times 0.667; a lexicon
// byte with type share and frequency 0.667), both WikiANN versions (0 and 7, the default) 0.676,
// cleared WikiANN twice 0.670; silver spans cleared by dev's common words 0.657; 2^20 buckets 0.669.
// WikiANN sentences the fold's own tagger disagrees with (about 30%), dropped 0.668 or relabelled by it
// 0.668 before retraining (self-training; both lower recall).
// A lexicon of words seen once (LEXICON_MIN 1, not 2): lower on 3 of the first 4 folds (0.633 0.686 0.669
// 0.682 against 0.630 0.696 0.680 0.690 before thresholds), so not run to the end. Where fold 1's errors are
// (8 epochs, no thresholds): ORG recall 0.42 (PER 0.66, LOC 0.64), and two thirds of the missed names
// overlap no predicted span at all: names in no training data, in contexts that do not give them away.
// German common-noun forms as features (NounForms in lib/text/ner/features.ts: is a word one of the
// 140,424 forms of german-pos-dict's 66,602 nouns, or does it end in one, a compound): with 2 templates
// (noun class by capitalisation; of the word and its neighbours) 0.686, with 2 more (by position in the
// sentence; by lexicon type) 0.689 (forms as a string set) and 0.683 (as the hashes the model stores: 2
// of 46,527 distinct dev and WikiANN words collide with a form), the default; 0.672 -> 0.687 before
// thresholds. Without a list the templates repeat others, so the other languages move: en 0.921 ->
// 0.918, es 0.792 -> 0.793, nl 0.776 -> 0.769.
// BIOES labels instead of BIO (an entity's last token E-X, a one-token entity S-X; lib/text/ner/labels.ts),
// so that the tagger learns how names end apart from how they go on: 0.683 -> 0.698 (every fold higher:
// 0.647 0.693 0.676 0.703 0.691 -> 0.676 0.701 0.682 0.725 0.703; before thresholds 0.687 -> 0.690); with
// decoding that also forbids a sentence to end inside an entity, and a threshold grid reaching down to
// 0.1, 0.696 (0.691 before thresholds); shipped: the sentence-end rule with the grid below, 0.696 (0.691).
// Name lists (first names, surnames, places: nameLists in ner-lexicon.ts) marked on the noun class: with
// every GeoNames place of 1,000+ people 0.6997 (0.695 before thresholds; folds 0.663 0.710 0.680 0.729
// 0.712), with places of 15,000+ 0.705 (0.708; 0.668 0.729 0.691 0.732 0.702), shipped.
// Bagging (NER_DE_BAG=3: the mean of 3 perceptrons, each on its own shuffle order) 0.7090 (0.664 0.733
// 0.690 0.741 0.712; 0.7087 before thresholds), within the scatter at three times the cost; one perceptron on
// a random half of the silver sentences (NER_DE_SILVER=0.5) 0.6924.
// Folds 1 and 2 only (uint8, no thresholds; 0.668 and 0.729 as shipped): WikiANN as partly labelled data
// (NER_DE_PARTIAL=name, `partial` below) 0.655 on fold 1; gold sentences with their names replaced
// (NER_DE_AUG=2) 0.686 and 0.709 with names from gold and WikiANN, 0.677 and 0.708 from gold alone.
// NER_DE_MIX=0,1,2 picks sources by position for such experiments.
function deMix (all: Source[]): Source[] {
  const pick = options.nerDeMix
  return pick.map(i => all[i] as Source)
}

export const LANGS: Record<string, LangSpec> = {
  en: {
    train: [
      { name: 'CoNLL-2003 English', ...CONLL03, split: 'eng.train', read: () => conll2003('eng.train') },
      ...(!options.nerEnWnut
        ? []
        : [
            {
              name:
                'WNUT-17 (person, location; corporation and group as organisation; ' +
                'product and creative-work as MISC)',
              ...WNUT,
              split: 'wnut17train.conll',
              read: () => wnut17('wnut17train.conll')
            }
          ]),
      {
        name: 'CoNLL-2003 English and WNUT-17, lower-case and capitals copies',
        ...CONLL03,
        licence: `${CONLL03.licence}; ${WNUT.licence}`,
        split:
          `eng.train and wnut17train.conll: ${options.nerEnLower * 100}% of sentences lower-cased, ` +
          `${options.nerEnUpper * 100}% in capitals (seeded)`,
        read: enCased
      }
    ],
    val: {
      name: 'CoNLL-2003 English',
      ...CONLL03,
      split: 'eng.testa (validation)',
      read: () => conll2003('eng.testa'),
      baseline:
        'published (test set, all 4 types): LSTM-CRF 0.909 (Lample et al. 2016), BERT-large 0.928; ' +
        'peer (held-out): compromise 0.49'
    },
    epochs: 12,
    lexicon: true,
    lowerWords: options.nerEnWords
  },
  es: {
    train: [{ name: 'CoNLL-2002 Spanish', ...CONLL02, split: 'esp.train', read: () => conll2002('esp.train') }],
    val: {
      name: 'CoNLL-2002 Spanish',
      ...CONLL02,
      split: 'esp.testa (validation)',
      read: () => conll2002('esp.testa'),
      baseline:
        'published (test set, all 4 types): LSTM-CRF 0.858 (Lample et al. 2016); peer (held-out): compromise 0.27'
    },
    epochs: 12,
    lexicon: true
  },
  nl: {
    train: [{ name: 'CoNLL-2002 Dutch', ...CONLL02, split: 'ned.train', read: () => conll2002('ned.train') }],
    val: {
      name: 'CoNLL-2002 Dutch',
      ...CONLL02,
      split: 'ned.testa (validation)',
      read: () => conll2002('ned.testa'),
      baseline:
        'published (test set, all 4 types): LSTM-CRF 0.817 (Lample et al. 2016); peer (held-out): compromise 0.24'
    },
    epochs: 12,
    // validation F1 0.764 with it, 0.778 without
    lexicon: false
  },
  de: {
    train: deMix([
      {
        ...WIKIANN,
        split: 'train.conllu + val.conllu',
        read: () => [...wikiann('train.conllu'), ...wikiann('val.conllu')],
        partial: true
      },
      {
        name: 'Europeana Newspapers German (LFT, ONB, SBB)',
        ...ENP,
        split: 'enp_DE.*.bio (all)',
        read: () => [...europeana('enp_DE.lft.bio'), ...europeana('enp_DE.onb.bio'), ...europeana('enp_DE.sbb.bio')]
      },
      {
        name: 'CoNLL-2002 Dutch, common nouns capitalised',
        ...CONLL02,
        split: 'ned.train',
        read: () => conll2002('ned.train', { germanise: true })
      },
      {
        name: 'CoNLL-2003 English, common nouns capitalised',
        ...CONLL03,
        split: 'eng.train',
        read: () => conll2003('eng.train', { germanise: true })
      },
      {
        name: 'CoNLL-2002 Spanish, common nouns capitalised',
        ...CONLL02,
        split: 'esp.train',
        read: () => conll2002('esp.train', { germanise: true })
      },
      {
        name: 'Europeana Newspapers Dutch (KB)',
        ...ENP,
        split: 'enp_NL.kb.bio',
        read: () => europeana('enp_NL.kb.bio')
      },
      {
        ...WIKIANN,
        split: 'train.conllu + val.conllu, sentences of 8+ tokens ending in . ! or ? only',
        read: () => [...wikiann('train.conllu'), ...wikiann('val.conllu')].filter(sentenceLike)
      },
      {
        ...WIKIANN,
        split:
          'train.conllu + val.conllu, spans starting with a word mostly outside entities in Europeana German cleared',
        read: () =>
          clearCommonNouns(
            [...wikiann('train.conllu'), ...wikiann('val.conllu')],
            [...europeana('enp_DE.lft.bio'), ...europeana('enp_DE.onb.bio'), ...europeana('enp_DE.sbb.bio')]
          ),
        partial: true
      }
    ]),
    cv: {
      name: 'GermEval 2014',
      path: 'ner/germeval2014-de',
      licence: 'CC BY 4.0',
      split: 'NER-de-dev.tsv',
      read: germevalDev,
      groups: germevalDevSources,
      folds: 5,
      repeat: options.nerDeGold,
      lexiconWeight: options.nerDeLexw,
      adapt: options.nerDeAdapt,
      bag: options.nerDeBag,
      silverShare: options.nerDeSilver,
      baseline:
        'published (test set, outer level, all types incl. OTH): GermEval 2014 best (ExB) about 0.76-0.79; ' +
        'peer (held-out): compromise 0.30'
    },
    // fixed: no validation set to pick an epoch on (cross-validated F1 0.641 0.654 0.664 0.664 0.671
    // 0.673 0.674 0.671 after epochs 1-8, before thresholds; 0.670 after 12)
    epochs: 8,
    lexicon: options.nerDeLex,
    nouns: options.nerDeNouns
  }
}
