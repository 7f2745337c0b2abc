// npm run train -- abuse: model-store/abuse/1, a binary abuse classifier (Non Abusive, Abusive)
// trained on OLID (offensive tweets) and ordinary texts; HatEval (hate speech) training tweets only
// fit the decision threshold, and both validation splits measure it. Beside the
// embedding bag, the shared word vectors of the text through ReLU units give words the tweets are
// too few to teach. The decision threshold is fitted on a held-out fifth of the training rows and
// folded into the output bias, so the served argmax is the thresholded answer.
import { join } from 'node:path'
import { loadWordVectors, type WordVectors } from '../lib/text/word-vectors.js'
import { clinc, headlines, isHeldOut, smsSpam, tweeteval, withoutOverlap, type Labelled } from './data.js'
import { predictAll, train, withTemperature, type Weights } from './fasttext.js'
import { argmax, confusion, macroF1, recall } from './metrics.js'
import { saveClassifier } from './save-classifier.js'
import type { TextModelSpec, TextValidation } from './text-model.js'

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
// HatEval's tweets are not trained on: its non-hateful tweets are often offensive (Abusive to OLID),
// and its hateful ones alone teach that any tweet about immigrants or women is abusive; a model
// trained without them scores HatEval validation as well or better (docs/models/abuse.md)
const rows = withoutOverlap([...olid, ...ordinary], olidVal, hateVal)
/** the shared word-vector table, a folder below model-store (features.json names it for serving) */
const VECTORS = 'word-vectors/1'
const LICENCE = 'research use (TweetEval: no licence given; Twitter/X terms)'

export const ABUSE: TextModelSpec = {
  op: 'abuse',
  labels: ['Non Abusive', 'Abusive'],
  description: 'Abuse: whether a text is abusive (offensive language, insults, hate speech) or not. Trained on OLID (OffensEval 2019) tweets via TweetEval and ordinary non-abusive texts; the decision threshold fitted with HatEval (SemEval-2019 task 5, English) training tweets too.',
  notes: 'Offensive OLID tweets are the Abusive class, the other OLID tweets and ordinary texts (queries, SMS, headlines) Non Abusive. Validation macro F1 OLID / HatEval, share of ordinary texts called Abusive: previous model (embedding bag only, OLID and HatEval both trained on, 6 epochs lr 0.2, threshold 0.5) 0.677 / 0.474 / 0.058. With the word vectors through 32 ReLU units, both sets trained on: 6 epochs lr 0.2 0.693 / 0.462 / 0.046; 20 epochs lr 0.2 0.669 / 0.527 / 0.057; 20 epochs lr 0.1 0.685 / 0.504 / 0.038, at the held-out-fifth threshold 0.6 0.686 / 0.514 / 0.025; HatEval non-hateful weighted 0.6 or 0.3 0.696 / 0.471, 0.704 / 0.471; HatEval hateful only 0.707 / 0.343 (weight 0.3: 0.722 / 0.344); without class balance 0.686 / 0.508 / 0.018; 64 units, dim 64, dim 16, lr 0.05: 0.663 / 0.512, 0.686 / 0.508, 0.674 / 0.511, 0.704 / 0.446; without char n-grams 0.612 / 0.519 / 0.096. Leave one domain out (both-sets model, threshold 0.5): OLID trained without OLID 0.521, HatEval trained without HatEval 0.528, above the 0.504 of the model that trains on HatEval: hence HatEval is left out. Without HatEval, threshold 0.5, 20 epochs lr 0.1: seed 23 0.708 / 0.521 / 0.018, seed 1 0.719 / 0.530 / 0.023; lr 0.2 0.713 / 0.511; 30 epochs 0.713 / 0.517.',
  features: { buckets: 1 << 16, charNgrams: [3, 5], wordBigrams: true, maxFeatures: 1500, maxChars: 2000, vectors: VECTORS },
  train: { dim: Number(env.TRAIN_DIM ?? 32), epochs: Number(env.TRAIN_EPOCHS ?? 20), lr: Number(env.TRAIN_LR ?? 0.1), seed: 23, balance: env.TRAIN_BALANCE !== '0', hidden: Number(env.TRAIN_HIDDEN ?? 32) },
  rows,
  validation: [
    { name: 'tweeteval-offensive (OLID)', split: 'validation', rows: olidVal, metric: { name: 'macro F1', score: (m) => macroF1(m, [0, 1]), baseline: 'target 0.75; published (test): RoBERTa 0.805, fastText 0.734, SVM 0.523' } },
    { name: 'tweeteval-hate (HatEval)', split: 'validation', rows: hateVal, metric: { name: 'macro F1', score: (m) => macroF1(m, [0, 1]), baseline: 'target 0.55; published (test): RoBERTa 0.523, fastText 0.506, SVM 0.367' } },
    { name: 'ordinary texts (CLINC150 val queries, news-headlines-sarcasm val HuffPost headlines; every 2nd)', split: 'validation', rows: ordinaryVal, metric: { name: 'share called Abusive (false alarms; lower is better)', score: (m) => 1 - recall(m, 0) } }
  ],
  sources: [
    { name: 'TweetEval offensive (OLID, Zampieri et al. 2019)', path: 'abuse/tweeteval-offensive', licence: LICENCE, split: 'train (val for validation)', rows: olid.length },
    { name: 'TweetEval hate (HatEval English, Basile et al. 2019), not trained on: fits the decision threshold only', path: 'abuse/tweeteval-hate', licence: LICENCE, split: 'train (val for validation)', rows: hate.length },
    { name: 'ordinary texts as Non Abusive: CLINC150 train (every 10th), SMS Spam Collection ham (every 3rd), news-headlines-sarcasm train HuffPost headlines (every 8th)', path: 'intent/clinc150, intent/sms-spam-collection, sarcasm/news-headlines-sarcasm', licence: 'CC BY 3.0 (CLINC150); CC BY 4.0 (SMS, UCI page; not verified); headlines not stated (cite Misra & Arora 2023), research use', rows: ordinary.length }
  ]
}

type Metric = { dataset: string, split: string, metric: string, value: number, baseline?: string }
const ABUSIVE_ID = 1
const r4 = (x: number) => Number(x.toFixed(4))

/** a validation set's score when Abusive is answered at p >= threshold */
function scoreAt (v: TextValidation, p: number[], threshold: number): number {
  return v.metric.score(confusion(v.rows.map((r) => ABUSE.labels.indexOf(r.label)), p.map((x) => x >= threshold ? ABUSIVE_ID : 0), 2))
}

/** trains on rows (the options of ABUSE), quietly */
function fit (rows: Labelled[], vectors: WordVectors, quiet: boolean, validate: (w: Weights) => { name: string, value: number } = () => ({ name: '', value: NaN })): Weights {
  return train(rows.map((r) => ({ text: r.text, label: ABUSE.labels.indexOf(r.label) })), ABUSE.features, { ...ABUSE.train, classes: 2, quiet }, validate, vectors)
}

const pAbusive = (w: Weights, vectors: WordVectors) => (texts: string[]) => predictAll(w, texts, ABUSE.features, vectors).map((p) => p[ABUSIVE_ID] as number)

/**
 * The threshold on p(Abusive): a model trained without a fixed fifth of the training rows (hash of
 * the text) answers that fifth; the threshold (0.30-0.80 by 0.05) with the best mean macro F1 of its
 * OLID tweets and of the HatEval training tweets, calling at most 5.8% of its ordinary texts Abusive (the previous model's
 * rate on the validation texts). No validation row is used.
 */
function fitThreshold (vectors: WordVectors, log: (s: string) => void): number {
  const w = fit(rows.filter((r) => !isHeldOut(r.text)), vectors, true)
  const held = (xs: Labelled[]) => withoutOverlap(xs, olidVal, hateVal).filter((r) => isHeldOut(r.text))
  // the model never trains on HatEval, so all of its training tweets are out of sample
  const sets = [held(olid), withoutOverlap(hate, olidVal, hateVal)]
  const score = (xs: Labelled[], t: number, p: number[]) => macroF1(confusion(xs.map((r) => ABUSE.labels.indexOf(r.label)), p.map((x) => x >= t ? 1 : 0), 2), [0, 1])
  const ps = sets.map((xs) => pAbusive(w, vectors)(xs.map((r) => r.text)))
  const ordHeld = held(ordinary)
  const po = pAbusive(w, vectors)(ordHeld.map((r) => r.text))
  let best = 0.5; let bestScore = -1
  for (let k = 6; k <= 16; k++) {
    const t = k / 20
    const f1 = sets.map((xs, i) => score(xs, t, ps[i]!))
    const alarms = po.filter((x) => x >= t).length / po.length
    const mean = (f1[0]! + f1[1]!) / 2
    log(`  threshold ${t.toFixed(2)}: held-out fifth OLID ${f1[0]!.toFixed(4)}, HatEval train ${f1[1]!.toFixed(4)}, ordinary called Abusive ${alarms.toFixed(4)}`)
    if (alarms <= 0.058 && mean > bestScore) { best = t; bestScore = mean }
  }
  return best
}

if (import.meta.filename === process.argv[1] || (process.argv[1]?.endsWith('train.ts') === true && process.argv[2] === 'abuse')) {
  const log = (s: string) => process.stderr.write(s + '\n')
  const vectors = await loadWordVectors(join(import.meta.dirname, '..', 'model-store', VECTORS))
  const threshold = env.ABUSE_THRESHOLD !== undefined ? Number(env.ABUSE_THRESHOLD) : fitThreshold(vectors, log)
  log(`  threshold ${threshold}`)
  const primary = ABUSE.validation[0]!
  const weights = fit(rows, vectors, false, (w) => ({ name: primary.metric.name, value: scoreAt(primary, pAbusive(w, vectors)(primary.rows.map((r) => r.text)), 0.5) }))
  // answering Abusive at p >= t is answering it when its logit beats the other's by log(t / (1 - t))
  const served = withTemperature(weights, 1, [0, -Math.log(threshold / (1 - threshold))])
  const metrics: Metric[] = ABUSE.validation.map((v) => ({ dataset: v.name, split: v.split, metric: v.metric.name, value: r4(v.metric.score(confusion(v.rows.map((r) => ABUSE.labels.indexOf(r.label)), predictAll(served, v.rows.map((r) => r.text), ABUSE.features, vectors).map(argmax), 2))), ...(v.metric.baseline === undefined ? {} : { baseline: v.metric.baseline }) }))
  const at50 = ABUSE.validation.map((v) => scoreAt(v, pAbusive(weights, vectors)(v.rows.map((r) => r.text)), 0.5).toFixed(4))
  for (const m of metrics) log(`  ${m.dataset} ${m.split}: ${m.metric} = ${m.value}`)
  log(`  at threshold 0.5: ${at50.join(' / ')}`)
  if (env.TRAIN_DRY !== '1') {
    const dir = env.TRAIN_OUT ?? join(import.meta.dirname, '..', 'model-store', ABUSE.op, '1')
    const t = ABUSE.train
    const f = ABUSE.features
    const architecture = `fastText-style embedding bag (dim ${t.dim}, ${f.buckets} hashed buckets of word unigrams, bigrams, char ${f.charNgrams.join('-')}-grams; embedding table stored as float16) and the SIF-weighted mean of the shared word vectors (${VECTORS}, ${vectors.dim} dimensions, frozen) through ${t.hidden} ReLU units, into a softmax; ${t.epochs} epochs of SGD from lr ${t.lr}${t.balance ? ', class-balanced loss' : ''}; ${rows.length} training rows. Abusive when p >= ${threshold} (fitted on a held-out fifth of the training rows, folded into the output bias: the served probabilities are those of the shifted logits, so the larger one decides); validation at 0.5 instead: ${at50.join(' / ')}.`
    await saveClassifier(dir, served, f, { op: ABUSE.op, description: ABUSE.description, labels: ABUSE.labels, seed: t.seed, sources: ABUSE.sources, notes: `${architecture} ${ABUSE.notes}`, metrics })
    log(`wrote ${dir}`)
  }
}
