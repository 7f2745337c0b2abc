// npm run train -- target_sentiment: the next version of model-store/target_sentiment, the sentiment towards an
// aspect of a text (negative, neutral, positive), trained on SemEval-2014 task 4 aspect terms
// (restaurants and laptops, training files only; a fixed 1-in-5 hash of the sentence validates).
// The embedding bag reads the text rewritten around the aspect (lib/text/aspect.ts); beside it, the
// SIF-weighted mean of the shared word vectors of that same rewritten text, through ReLU units,
// gives the words the aspect terms are too few to teach (laptops 0.66 -> 0.71 on validation).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { aspectInput } from '../../lib/text/aspect.js'
import { loadWordVectors } from '../../lib/text/words/vectors.js'
import { isHeldOut, lines, need, type Labelled } from '../readers/data.js'
import { trainSparseSgd } from '../trainers/sparse-sgd.js'
import { predictAll, type Weights } from '../trainers/embedding-bag.js'
import { accuracy, argmax, confusion, macroF1 } from '../trainers/scores.js'
import { saveClassifier } from '../trainers/save-classifier.js'
import { fitTemperatureOn } from '../calibration/temperature.js'
import type { TextModelSpec, TextValidation } from '../trainers/text-model.js'
import { readNotes } from '../readers/notes.js'
import { nextVersion } from '../readers/store.js'
import { args, options } from '../readers/options.js'

const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')

/** aspect terms with 3-class polarity (conflict left out), split by a hash of their sentence */
function absa (file: string): { train: Labelled[]; val: Labelled[] } {
  const xml = readFileSync(need(`target-sentiment/semeval2014-absa/${file}`), 'utf8')
  const out = { train: [] as Labelled[], val: [] as Labelled[] }
  for (const s of xml.split('<sentence ').slice(1)) {
    const text = unescape(/<text>([\s\S]*?)<\/text>/.exec(s)?.[1] ?? '')
    const part = isHeldOut(text) ? out.val : out.train
    for (const m of s.matchAll(/<aspectTerm term="[^"]*" polarity="(\w+)" from="(\d+)" to="(\d+)"\/>/g)) {
      if (m[1] === 'conflict') continue
      part.push({ text: aspectInput(text, { start: Number(m[2]), end: Number(m[3]) }), label: m[1] as string })
    }
  }
  return out
}

// whole review sentences (no aspect marked) teach sentiment words the aspect terms are too few for
const POLARITY = ['negative', 'positive']
const sentences = (path: string): Labelled[] =>
  lines(path).map(l => ({ label: POLARITY[Number(l.slice(0, 1))] as string, text: l.slice(2) }))
const extra = sentences('sentiment/customer-reviews-hu-liu/custrev.all')
const rest = absa('Restaurants_Train_v2.xml')
const lap = absa('Laptop_Train_v2.xml')
const LICENCE = 'research use (SemEval-2014 task 4 / META-SHARE terms; no licence in the files)'
const metric = (baseline: string) => ({ name: 'accuracy (3 classes)', score: accuracy, baseline })
/** the shared word-vector table, a folder below model-store (features.json names it for serving) */
const VECTORS = 'word-vectors/1'
/** the one hidden width of --hidden (TRAIN_HIDDEN): the word vectors' ReLU units */
const oneHidden = ([width, ...more]: number[]) => {
  if (width === undefined || more.length > 0) throw new Error('target_sentiment: --hidden takes one width')
  return width
}

export const TARGET_SENTIMENT: TextModelSpec = {
  op: 'target_sentiment',
  labels: ['negative', 'neutral', 'positive'],
  description:
    'Sentiment towards an aspect of a text (negative, neutral, positive): an embedding bag over the whole text ' +
    "plus the words of the aspect's clause and its neighbours, marked apart (lib/text/aspect.ts), beside the " +
    'shared word vectors of the same words through ReLU units. ' +
    'Trained on SemEval-2014 task 4 aspect terms (restaurants, laptops).',
  notes: '',
  features: {
    buckets: 1 << 16,
    charNgrams: [],
    wordBigrams: true,
    maxFeatures: 2000,
    maxChars: 3000,
    vectors: VECTORS
  },
  train: {
    dim: options.dim ?? 32,
    epochs: options.epochs ?? 20,
    lr: options.lr ?? 0.2,
    seed: 29,
    balance: false,
    hidden: oneHidden(options.hidden ?? [32])
  },
  rows: [...rest.train, ...lap.train, ...extra],
  validation: [
    {
      name: 'semeval2014-absa restaurants',
      split: 'hash 1/5 of Restaurants_Train_v2',
      rows: rest.val,
      metric: metric('target 0.75; published (test): IAN 0.786, ATAE-LSTM 0.772, majority 0.650')
    },
    {
      name: 'semeval2014-absa laptops',
      split: 'hash 1/5 of Laptop_Train_v2',
      rows: lap.val,
      metric: metric('target 0.68; published (test): IAN 0.721, ATAE-LSTM 0.687, majority 0.535')
    },
    {
      name: 'semeval2014-absa restaurants',
      split: 'hash 1/5 of Restaurants_Train_v2',
      rows: rest.val,
      metric: { name: 'macro F1', score: m => macroF1(m, [0, 1, 2]) }
    },
    {
      name: 'semeval2014-absa laptops',
      split: 'hash 1/5 of Laptop_Train_v2',
      rows: lap.val,
      metric: { name: 'macro F1', score: m => macroF1(m, [0, 1, 2]) }
    }
  ],
  sources: [
    {
      name: 'SemEval-2014 task 4 restaurants (aspect terms)',
      path: 'target-sentiment/semeval2014-absa',
      licence: LICENCE,
      split: 'Restaurants_Train_v2 minus the 1-in-5 hash',
      rows: rest.train.length
    },
    {
      name: 'SemEval-2014 task 4 laptops (aspect terms)',
      path: 'target-sentiment/semeval2014-absa',
      licence: LICENCE,
      split: 'Laptop_Train_v2 minus the 1-in-5 hash',
      rows: lap.train.length
    },
    {
      name: 'Customer review sentences (Hu & Liu 2004)',
      path: 'sentiment/customer-reviews-hu-liu',
      licence: 'research use (no explicit licence)',
      split: 'all',
      rows: extra.length
    }
  ]
}

/** a validation set's score for a model's answers */
function scoreOn (v: TextValidation, predict: (texts: string[]) => number[][]): number {
  const index = new Map(TARGET_SENTIMENT.labels.map((l, i) => [l, i]))
  return v.metric.score(
    confusion(
      v.rows.map(r => index.get(r.label) as number),
      predict(v.rows.map(r => r.text)).map(argmax),
      TARGET_SENTIMENT.labels.length
    )
  )
}

if (
  import.meta.filename === process.argv[1] ||
  (process.argv[1]?.endsWith('train.ts') === true && args[0] === 'target_sentiment')
) {
  const spec = TARGET_SENTIMENT
  const vectors = await loadWordVectors(join(import.meta.dirname, '..', '..', 'model-store', VECTORS))
  const cfg = spec.features
  const opts = { ...spec.train, classes: spec.labels.length }
  const id = (label: string) => spec.labels.indexOf(label)
  const examples = (rows: Labelled[]) => rows.map(r => ({ text: r.text, label: id(r.label) }))
  const predictWith = (w: Weights) => (texts: string[]) => predictAll(w, texts, cfg, vectors)
  const primary = spec.validation[0]!
  const raw = trainSparseSgd(
    examples(spec.rows),
    cfg,
    opts,
    w => ({ name: primary.metric.name, value: scoreOn(primary, predictWith(w)) }),
    vectors
  )
  // temperature and a bias per label on the calibration half of each domain's validation terms (each
  // set once: the list names each twice, for two metrics)
  const sets = [...new Map(spec.validation.map(v => [v.name, v])).values()].map(v => examples(v.rows))
  const { weights, temperature, bias, rows: calibrationRows } = fitTemperatureOn(raw, sets, cfg, false, vectors)
  const before = spec.validation.map(v => `${v.name} ${v.metric.name} ${scoreOn(v, predictWith(raw)).toFixed(4)}`)
  process.stderr.write(
    `  temperature ${temperature.toFixed(3)}, label biases ${bias.join(' ')} ` +
      `(fitted on ${calibrationRows} validation rows); before it: ${before.join(', ')}\n`
  )
  const metrics: Array<{ dataset: string; split: string; metric: string; value: number; baseline?: string }> =
    spec.validation.map(v => ({
      dataset: v.name,
      split: v.split,
      metric: v.metric.name,
      value: Number(scoreOn(v, predictWith(weights)).toFixed(4)),
      ...(v.metric.baseline === undefined ? {} : { baseline: v.metric.baseline })
    }))
  // leave one domain out: trained on the other domain's terms (and the review sentences) alone
  if (options.lodo) {
    for (const [v, without, rows] of [
      [spec.validation[0]!, 'restaurants', lap.train],
      [spec.validation[1]!, 'laptops', rest.train]
    ] as const) {
      process.stderr.write(`  leave out ${without}\n`)
      const w = trainSparseSgd(
        examples([...rows, ...extra]),
        cfg,
        { ...opts, quiet: true },
        () => ({ name: '', value: NaN }),
        vectors
      )
      metrics.push({
        dataset: v.name,
        split: `${v.split}; trained without the ${without} terms (leave one domain out)`,
        metric: v.metric.name,
        value: Number(scoreOn(v, predictWith(w)).toFixed(4))
      })
    }
  }
  for (const m of metrics) process.stderr.write(`  ${m.dataset} ${m.split}: ${m.metric} = ${m.value}\n`)
  if (!options.dry) {
    const dir = options.out ?? nextVersion(spec.op)
    const t = spec.train
    const architecture =
      `fastText-style embedding bag (dim ${t.dim}, ${cfg.buckets} hashed buckets of word unigrams, bigrams; ` +
      'embedding table stored as float16) and the SIF-weighted mean of the shared word vectors ' +
      `(${VECTORS}, ${vectors.dim} dimensions, frozen) of the same input through ${t.hidden} ReLU units, ` +
      `into a softmax; ${t.epochs} epochs of SGD from lr ${t.lr}; ${spec.rows.length} training rows; ` +
      `logits divided by a temperature of ${temperature.toFixed(3)} plus a bias per label, ` +
      "fitted on half of each domain's validation terms."
    await saveClassifier(dir, weights, cfg, {
      op: spec.op,
      description: spec.description,
      labels: spec.labels,
      seed: t.seed,
      sources: spec.sources,
      notes: `${architecture} ${readNotes('target_sentiment')}`,
      calibration: {
        method: 'temperature scaling with a bias per label',
        temperature: Number(temperature.toFixed(4)),
        bias
      },
      metrics
    })
    process.stderr.write(`wrote ${dir}\n`)
  }
}
