// npm run train -- ner: reproduces model-store/ner/1 from ../shared/datasets/ner (fixed seeds).
// One averaged structured perceptron per language over the hashed token features of
// lib/text/ner/features.ts; its emission table is written as a uint8-quantised TF.js weight (served
// by lib/text/ner/tagger.ts, which sums its rows per token), its transition matrix, word lexicon, confidence
// temperature and per-type confidence thresholds beside it. Prints per epoch the training token
// errors and validation F1; about 10 minutes on 2 cores in all, 8 of them German's.
// German trains on its only in-domain gold data, GermEval dev, so it has no validation set: it is
// measured by 5-fold cross-validation (crossValidate below, about 7 minutes), then trained on all
// of it. `npm run train -- ner --cv-de` runs only that cross-validation and writes nothing. Each
// language's corpora and settings are in training/readers/ner-sources.ts.
// NER_LANGS=en,de, NER_EPOCHS, NER_BUCKETS, NER_DE_MIX, NER_DE_GOLD, NER_DE_ADAPT=0, NER_DE_LEXW,
// NER_DE_LEX=0, NER_DE_NOUNS=0, NER_DE_NAMES=0, NER_DE_BAG, NER_DE_SILVER, NER_NAMES_MINPOP, NER_O_PENALTIES
// (a grid, e.g. 0,4,8: the O penalty is then chosen by the cross-validation), NER_DE_PARTIAL (silver as
// partly labelled), NER_DE_AUG and NER_DE_AUGPOOL (gold sentences with their names replaced),
// NER_CV_FOLDS and NER_OUT override for experiments only; docs/models/ner.md says what each gave.
import { mkdir, writeFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { fileIO } from '../../lib/runtime/tf-io.js'
import { FEATURES, LEXICON_SIZE, featurise, NAME_KINDS, NounForms } from '../../lib/text/ner/features.js'
import { LABELS, NUM_LABELS } from '../../lib/text/ner/labels.js'
import {
  FOLDS,
  GERMAN_NOUNS,
  LOWER_CASE_WORDS,
  NAME_LISTS,
  germanNouns,
  lexicons,
  lowerCaseWords,
  nameLists
} from '../trainers/ner-lexicon.js'
import { rng, shuffle } from '../trainers/sparse-sgd.js'
import { MAX_CHARS, quantise } from '../../lib/text/ner/tagger.js'
import { mentions, replaceMentions, retokenize, wnut17, type Sentence } from '../readers/ner.js'
import { LANGS, SEED, type CvSource, type LangSpec } from '../readers/ner-sources.js'
import {
  TEMPERATURES,
  applyThresholds,
  penaliseO,
  bestTemperature,
  calibrate,
  calibrationLoss,
  evaluate,
  fitThresholds,
  pickThresholds,
  pool,
  scoreSpans,
  train,
  trainBagged,
  type Encoded,
  type Prf,
  type Scored,
  type Tagger
} from '../trainers/perceptron.js'

const env = process.env
const BUCKETS = Number(env.NER_BUCKETS ?? 2 ** 18)
const log = (s: string) => process.stderr.write(s + '\n')
const t0 = performance.now()
const CV_ONLY = process.argv.includes('--cv-de')
const GRID = [0, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8]
// penalties on the O label tried for a cross-validated language (penaliseO in ner-perceptron.ts)
const O_PENALTIES = (env.NER_O_PENALTIES ?? '0').split(',').map(Number)

// which O labels of partly labelled (silver) sentences are left free: NER_DE_PARTIAL=name (capitalised
// words that are not common-noun forms), cap (every capitalised word), 0 (none: silver is taken as it is)
const PARTIAL = env.NER_DE_PARTIAL ?? '0'
const freeOf = (words: string[], nouns?: NounForms): Uint8Array | undefined => {
  if (PARTIAL === '0') return undefined
  return Uint8Array.from(words, w =>
    /^\p{Lu}/u.test(w) && (PARTIAL === 'cap' || nouns === undefined || !nouns.has(w)) ? 1 : 0
  )
}
const encode = (
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

/**
 * Folds for cross-validation: the sentences of one source document (GermEval's "#" line) stay
 * together, documents dealt to `k` folds in a seeded random order.
 */
function foldsOf (groups: string[], k: number, seed: number): number[] {
  const docs = shuffle([...new Set(groups)], rng(seed))
  const fold = new Map(docs.map((d, i) => [d, i % k]))
  return groups.map(g => fold.get(g) as number)
}

/**
 * A tagger trained for a fixed number of epochs on `silver` plus `gold` as cv says, with the
 * lexicon of both (out of fold for the training sentences); `heldOut` is encoded with the full one.
 */
function fitWithGold (
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
    log(
      `${name}: ${tr.filter(d => d.free !== undefined).length} partly labelled sentences, ${tr.reduce((a, d) => a + (d.free?.reduce((b, x) => b + x, 0) ?? 0), 0)} free O tokens (NER_DE_PARTIAL=${PARTIAL})`
    )
  }
  const goldEnc = tr.slice(silver.length)
  for (const d of goldEnc) d.target = true
  for (let r = 1; r < cv.repeat; r++) tr.push(...goldEnc)
  // mention replacement: NER_DE_AUG copies of each gold sentence with its names swapped for others of
  // the same type from the gold sentences (NER_DE_AUGPOOL=gold), the German silver ones (silver) or both
  const copies = Number(env.NER_DE_AUG ?? 0)
  if (copies > 0 && cv.repeat > 0) {
    const which = env.NER_DE_AUGPOOL ?? 'gold'
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
    tr.push(...enc)
    log(
      `${name}: ${enc.length} gold sentences with names replaced (pool ${which}: ${pool.map(p => p.length).join('/')} PER/ORG/LOC)`
    )
  }
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

const merge = (parts: Scored[]): Scored => ({
  spans: parts.flatMap(p => p.spans),
  gold: parts.reduce((a, p) => a + p.gold, 0)
})

/**
 * A language whose only in-domain gold data is also its measure (German: GermEval dev). Each of
 * cv.folds folds is tagged by a tagger trained on the other folds and the silver data, for a fixed
 * number of epochs; its confidence temperature and thresholds are fitted on the other folds'
 * held-out predictions, never its own. The figure is F1 pooled over all held-out predictions (per
 * fold and mean beside it). The served tagger then trains on all the gold data, its temperature and
 * thresholds fitted on every fold's held-out predictions.
 */
function crossValidate (
  lang: string,
  spec: LangSpec,
  cv: CvSource,
  silver: Sentence[],
  retok: (x: Sentence) => Sentence,
  nouns: NounForms | undefined,
  partial: boolean[]
): void {
  const t1 = performance.now()
  const gold = cv.read().map(retok)
  const folds = foldsOf(cv.groups(), cv.folds, SEED)
  if (folds.length !== gold.length) {
    throw new Error(`${cv.name}: ${folds.length} source lines for ${gold.length} sentences`)
  }
  const epochs = Number(env.NER_EPOCHS ?? spec.epochs)
  log(
    `ner ${lang}: ${silver.length} silver training sentences; ${gold.length} ${cv.name} sentences (x${cv.repeat} in training, x${cv.lexiconWeight} in the lexicon${cv.adapt ? ', target-domain weights' : ''}), ${cv.folds}-fold cross-validation, ${epochs} epochs`
  )
  const parts: Array<{ raw: Prf; loss: number[]; n: number; scored: Scored[][]; history: Prf[] }> = []
  const only = env.NER_CV_FOLDS?.split(',').map(Number)
  for (let k = 0; k < cv.folds; k++) {
    if (only !== undefined && !only.includes(k + 1)) continue
    const f = fitWithGold(
      silver,
      gold.filter((_, i) => folds[i] !== k),
      cv,
      gold.filter((_, i) => folds[i] === k),
      spec.lexicon,
      nouns,
      epochs,
      `${lang} fold ${k + 1}`,
      partial
    )
    const { loss, n } = calibrationLoss(f.served, f.va)
    // spans and confidences at every temperature, for each O penalty
    const scored = O_PENALTIES.map(d => {
      const m = { ...f.served, T: penaliseO(f.served.T, d) }
      return TEMPERATURES.map(t => scoreSpans(m, f.va, t))
    })
    parts.push({ raw: evaluate(f.served, f.va), loss, n, scored, history: f.history })
    log(
      `ner ${lang} fold ${k + 1}: ${f.va.length} held-out sentences, uint8, no thresholds: ${show(parts[parts.length - 1]!.raw)}; ${((performance.now() - t1) / 1000).toFixed(0)} s`
    )
  }
  // a quick proxy for experiments: some folds only (NER_CV_FOLDS=1,2), before thresholds, nothing written
  if (only !== undefined) {
    log(`ner ${lang} folds ${only.join(',')} pooled, no thresholds: ${show(pool(parts.map(p => p.raw)))}`)
    process.exit(0)
  }
  // temperature (least held-out log-loss, without O penalty), then the O penalty and thresholds (best
  // held-out F1) from the given folds' predictions
  const fitOn = (ps: typeof parts) => {
    const temp = bestTemperature(
      TEMPERATURES.map((_, i) => ps.reduce((a, p) => a + (p.loss[i] as number), 0)),
      ps.reduce((a, p) => a + p.n, 0)
    )
    const at = TEMPERATURES.indexOf(temp)
    const fits = O_PENALTIES.map((_, d) => pickThresholds(merge(ps.map(p => p.scored[d]![at] as Scored)), GRID))
    const d = fits.reduce((best, x, i) => (x.val.f1 > (fits[best] as typeof x).val.f1 ? i : best), 0)
    return { temp, at, d, penalty: O_PENALTIES[d] as number, thresholds: (fits[d] as (typeof fits)[number]).thresholds }
  }
  for (const [d, penalty] of O_PENALTIES.entries()) {
    const t = TEMPERATURES.indexOf(1)
    log(
      `ner ${lang} O penalty ${penalty}: pooled, no thresholds: ${show(pool(parts.map(p => applyThresholds(p.scored[d]![t] as Scored, [0, 0, 0]))))}`
    )
  }
  const held = parts.map((p, k) => {
    const o = fitOn(parts.filter((_, j) => j !== k))
    const v = applyThresholds(p.scored[o.d]![o.at] as Scored, o.thresholds)
    log(
      `ner ${lang} fold ${k + 1}: temperature ${o.temp}, O penalty ${o.penalty}, thresholds ${o.thresholds.join('/')} (from the other folds): ${show(v)}`
    )
    return v
  })
  const curve = parts[0]!.history.map((_, e) => pool(parts.map(p => p.history[e] as Prf)).f1.toFixed(4))
  const pooled = pool(held)
  const mean = held.reduce((a, v) => a + v.f1, 0) / held.length
  const raw = pool(parts.map(p => p.raw))
  log(
    `ner ${lang} cross-validated: pooled ${show(pooled)}; fold F1 ${held.map(v => v.f1.toFixed(4)).join(' ')}, mean ${mean.toFixed(4)}; without thresholds pooled F1 ${raw.f1.toFixed(4)}; pooled F1 by epoch (float weights, no thresholds) ${curve.join(' ')}`
  )
  if (CV_ONLY) return

  const all = fitOn(parts)
  const f = fitWithGold(silver, gold, cv, [], spec.lexicon, nouns, epochs, lang, partial)
  temperature[lang] = all.temp
  minConfidence[lang] = all.thresholds
  log(
    `ner ${lang}: trained on all ${gold.length} ${cv.name} sentences; temperature ${all.temp}, O penalty ${all.penalty}, thresholds PER/ORG/LOC ${all.thresholds.join('/')} from the held-out predictions`
  )
  data.push({
    name: `${cv.name} [${lang}]`,
    path: cv.path,
    licence: cv.licence,
    split: `${cv.split} (all of it, the only in-domain gold data: ${cv.repeat} times among the training sentences; outer PER/ORG/LOC, OTH as MISC, *deriv and *part as O)`,
    rows: gold.length
  })
  saveLanguage(lang, f, f.lex, penaliseO(f.model.T, all.penalty), nouns)
  metrics.push({
    dataset: cv.name,
    split: `${cv.split}, ${cv.folds}-fold cross-validated (folds by source document, seed ${SEED}; outer PER/ORG/LOC, *deriv and *part as O): the shipped model trains on all of it`,
    metric: `entity F1 (exact span, PER/ORG/LOC; sentences cut by the service's tokeniser), pooled over the ${cv.folds} held-out folds, each tagged by a model trained on the other ${cv.folds - 1} and the silver data (fold F1 ${held.map(v => v.f1.toFixed(3)).join(', ')}; mean ${mean.toFixed(4)}; P ${pooled.p.toFixed(3)} R ${pooled.r.toFixed(3)})`,
    value: Number(pooled.f1.toFixed(4)),
    baseline: cv.baseline
  })
  notes.push(
    `${lang}: ${epochs} epochs (fixed)${cv.bag > 1 ? `, the mean of ${cv.bag} perceptrons each trained on its own shuffle order${cv.silverShare < 1 ? ` and its own random ${cv.silverShare * 100}% of the silver sentences` : ''} (bagging)` : ''}, ${cv.name} ${cv.split} ${cv.repeat} times among the training sentences and ${cv.lexiconWeight} times in the lexicon${cv.adapt ? ', with target-domain weights of its own (feature augmentation, Daume 2007; served: shared + target weights)' : ''}, temperature ${Number(all.temp.toFixed(3))}, ${all.penalty === 0 ? '' : `O penalty ${all.penalty} (taken from every transition into O: more entities proposed), `}PER/ORG/LOC entities below confidence ${all.thresholds.join('/')} dropped (temperature${O_PENALTIES.length > 1 ? ', O penalty' : ''} and thresholds fitted on the ${cv.folds}-fold cross-validation's held-out predictions); its figure below is that cross-validation's, pooled over the held-out folds (folds by source document), each scored by a tagger that did not see it, with temperature${O_PENALTIES.length > 1 ? ', O penalty' : ''} and thresholds fitted on the other folds; the data mix, gold weights and epoch count were chosen by that figure, so it is slightly optimistic`
  )
}

const langs = CV_ONLY ? ['de'] : (env.NER_LANGS ?? 'en,es,nl,de').split(',')
const weightSpecs: Array<{
  name: string
  shape: number[]
  dtype: 'float32' | 'int32'
  quantization?: { dtype: 'uint8'; scale: number; min: number }
}> = []
const buffers: Buffer[] = []
const weight = (spec: (typeof weightSpecs)[number], data: ArrayBufferView) => {
  weightSpecs.push(spec)
  buffers.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength))
}
/**
 * A language's weights, as the served tagger reads them (lib/text/ner/tagger.ts readLanguage): the uint8
 * emission table, the lexicon, the transitions, and the noun forms' and name lists' hashes (int32).
 */
function saveLanguage (
  lang: string,
  emissions: { bytes: Uint8Array; scale: number; min: number },
  lexicon: Uint8Array | undefined,
  transitions: Float32Array,
  nouns: NounForms | undefined
): void {
  weight(
    {
      name: `${lang}/emissions`,
      shape: [BUCKETS, NUM_LABELS],
      dtype: 'float32',
      quantization: { dtype: 'uint8', scale: emissions.scale, min: emissions.min }
    },
    emissions.bytes
  )
  if (lexicon !== undefined) {
    weight(
      {
        name: `${lang}/lexicon`,
        shape: [LEXICON_SIZE],
        dtype: 'float32',
        quantization: { dtype: 'uint8', scale: 1, min: 0 }
      },
      lexicon
    )
  }
  weight({ name: `${lang}/transitions`, shape: [NUM_LABELS + 1, NUM_LABELS], dtype: 'float32' }, transitions)
  if (nouns === undefined) return
  weight({ name: `${lang}/nouns`, shape: [nouns.hashes.length], dtype: 'int32' }, nouns.hashes)
  if (nouns.names !== undefined) {
    for (const k of NAME_KINDS) {
      weight({ name: `${lang}/names-${k}`, shape: [nouns.names[k].length], dtype: 'int32' }, nouns.names[k])
    }
  }
}
const metrics: Array<{ dataset: string; split: string; metric: string; value: number; baseline: string }> = []
const notes: string[] = []
const temperature: Record<string, number> = {}
const minConfidence: Record<string, number[]> = {}
const caseless: string[] = []
const data: Array<{ name: string; path: string; licence: string; split: string; rows: number }> = []
for (const lang of langs) {
  const spec = LANGS[lang]
  if (spec === undefined) throw new Error(`no NER spec for ${lang}`)
  const t1 = performance.now()
  // training and validation see the tokens the service will cut (retokenize in ner-data.ts)
  const retok = (x: Sentence): Sentence => retokenize(x, lang)
  const trainSents: Sentence[] = []
  const partial: boolean[] = []
  for (const s of spec.train) {
    const rows = s.read()
    trainSents.push(...rows.map(retok))
    for (let i = 0; i < rows.length; i++) partial.push(s.partial === true)
    data.push({ name: `${s.name} [${lang}]`, path: s.path, licence: s.licence, split: s.split, rows: rows.length })
  }
  let nouns: NounForms | undefined
  if (spec.lowerWords === true) {
    const names = await nameLists()
    const lw = lowerCaseWords(wnut17('wnut17train.conll').map(x => x.words))
    nouns = NounForms.of(lw.words, names, true)
    caseless.push(lang)
    data.push({
      ...LOWER_CASE_WORDS,
      name: `${LOWER_CASE_WORDS.name} [${lang}, a feature, not training sentences]`,
      split: `${lw.words.size} words, from ${lw.texts} texts and training sentences`,
      rows: lw.words.size
    })
    data.push({
      ...NAME_LISTS,
      name: `${NAME_LISTS.name} [${lang}, a feature, not training sentences]`,
      split: `one-word names: ${names.first.size} first names, ${names.last.size} surnames, ${names.place.size} places`,
      rows: names.first.size + names.last.size + names.place.size
    })
  }
  if (spec.nouns === true) {
    const names = env.NER_DE_NAMES === '0' ? undefined : await nameLists()
    const g = germanNouns(names)
    nouns = g.nouns
    data.push({
      ...GERMAN_NOUNS,
      name: `${GERMAN_NOUNS.name} [${lang}, a feature, not training sentences]`,
      split: `every case and number of ${g.lemmas} nouns: ${g.forms} forms, stored as ${nouns.hashes.length} hashes`,
      rows: g.forms
    })
    if (names !== undefined && nouns.names !== undefined) {
      const n = nouns.names
      data.push({
        ...NAME_LISTS,
        name: `${NAME_LISTS.name} [${lang}, a feature, not training sentences]`,
        split: `one-word names: ${names.first.size} first names, ${names.last.size} surnames, ${names.place.size} places, stored as ${n.first.length} + ${n.last.length} + ${n.place.length} hashes`,
        rows: names.first.size + names.last.size + names.place.size
      })
    }
  }
  if (spec.cv !== undefined) {
    crossValidate(lang, spec, spec.cv, trainSents, retok, nouns, partial)
    continue
  }
  if (spec.val === undefined) throw new Error(`NER spec for ${lang} has neither val nor cv`)
  const valSents = spec.val.read().map(retok)
  data.push({
    name: `${spec.val.name} [${lang}, validation]`,
    path: spec.val.path,
    licence: spec.val.licence,
    split: spec.val.split,
    rows: valSents.length
  })
  const lex = spec.lexicon ? lexicons(trainSents) : undefined
  const tr = encode(trainSents, i => lex?.folds[i % FOLDS], nouns)
  const va = encode(valSents, () => lex?.full, nouns)
  log(
    `ner ${lang}: ${tr.length} training sentences (${tr.reduce((a, d) => a + d.n, 0)} tokens), ${va.length} validation; features in ${((performance.now() - t1) / 1000).toFixed(1)} s`
  )
  const epochs = Number(env.NER_EPOCHS ?? spec.epochs)
  const { model, epoch, val } = train(tr, va, { buckets: BUCKETS, epochs, seed: SEED, log, name: lang })
  const q = quantise(model.W)
  const served = { ...model, W: q.dequantised }
  log(
    `ner ${lang}: kept epoch ${epoch}: F1 ${val.f1.toFixed(4)}; after uint8 quantisation ${show(evaluate(served, va))}`
  )
  temperature[lang] = calibrate(served, va)
  const fit = fitThresholds(served, va, temperature[lang], GRID)
  minConfidence[lang] = fit.thresholds
  const final = fit.val
  log(
    `ner ${lang}: temperature ${temperature[lang]}; confidence thresholds PER/ORG/LOC ${fit.thresholds.join('/')}: ${show(final)}`
  )
  saveLanguage(lang, q, lex?.full, model.T, nouns)
  metrics.push({
    dataset: spec.val.name,
    split: spec.val.split,
    metric: `entity F1 (exact span, PER/ORG/LOC; sentences cut by the service's tokeniser; P ${final.p.toFixed(3)} R ${final.r.toFixed(3)})`,
    value: Number(final.f1.toFixed(4)),
    baseline: spec.val.baseline
  })
  notes.push(
    `${lang}: ${epoch} of ${epochs} epochs, temperature ${Number(temperature[lang]?.toFixed(3))}, PER/ORG/LOC entities below confidence ${(minConfidence[lang] ?? []).join('/')} dropped`
  )
}

if (CV_ONLY) process.exit(0)

function show (v: Prf): string {
  return `F1 ${v.f1.toFixed(4)} P ${v.p.toFixed(4)} R ${v.r.toFixed(4)} (${v.tp}/${v.pred} predicted, ${v.gold} gold)`
}

const dir = env.NER_OUT ?? join(import.meta.dirname, '..', '..', 'model-store', 'ner', '1')
await mkdir(dir, { recursive: true })
const all = Buffer.concat(buffers)
const meta = {
  buckets: BUCKETS,
  features: FEATURES,
  labels: LABELS,
  languages: langs,
  maxChars: MAX_CHARS,
  temperature,
  minConfidence,
  caseless
}
await fileIO(join(dir, 'model.json')).save!({
  format: 'ner-perceptron',
  generatedBy: 'training/recipes/ner.ts',
  weightSpecs,
  weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
  userDefinedMetadata: meta
})
const manifest = {
  name: 'ner',
  version: 1,
  kind: 'ner-tagger',
  description:
    'Named entities (name = person, group = organisation, place = location) in English, Spanish, Dutch and German: per-language averaged structured perceptrons over hashed token features with BIOES Viterbi decoding.',
  languages: langs,
  labels: ['name', 'group', 'place'],
  inputs: [
    {
      name: 'ids',
      dtype: 'int32',
      shape: [null, FEATURES],
      description:
        'hashed feature ids of each token (lib/text/ner/features.ts), gathered from <lang>/emissions and summed'
    }
  ],
  outputs: [
    {
      name: 'scores',
      dtype: 'float32',
      shape: [null, NUM_LABELS],
      description: `per-token scores of ${LABELS.join(' ')}; Viterbi with <lang>/transitions gives the spans, MISC is not reported`
    }
  ],
  files: ['model.json', 'weights.bin'],
  training: {
    command: 'npm run train -- ner',
    seed: SEED,
    data,
    notes: `${BUCKETS} hashed buckets x ${NUM_LABELS} labels per language, ${FEATURES} feature templates per token (words and lower-cased words in a +-2 window, word bigrams, shapes, prefixes and suffixes, capitalisation patterns; for ${langs.filter(l => LANGS[l]?.nouns === true).join(', ') || 'no language'}, whether a word is, or ends in, a common-noun form of german-pos-dict, its capitalisation saying little where every noun has one, and whether it is a listed first name, surname or place (the name lists below); for ${langs.filter(l => LANGS[l]?.lowerWords === true).join(', ') || 'no language'}, whether a word, lower-cased, is one mostly written in lower case where case is free (a capitalised common word: sentence-initial words, interjections, headings) and whether it is a listed name or place), emission tables quantised to uint8; training and validation sentences re-cut by the service's tokeniser (labels carried over) so that both see what serving sees; for ${langs.filter(l => LANGS[l]?.lexicon === true).join(', ')}, a lexicon (hashed lower-cased word -> its most frequent type in the training data, jackknifed over 10 folds in training); confidence is the mean forward-backward probability of an entity's token labels, with a per-language temperature fitted to validation log-loss. ${notes.join('; ')}. ${langs.some(l => LANGS[l]?.val !== undefined) ? `${langs.filter(l => LANGS[l]?.val !== undefined).join(', ')}: epoch count, temperature and confidence threshold are selected on the validation sets the metrics below come from, so those figures are slightly optimistic.` : ''} Texts are read up to ${MAX_CHARS} UTF-16 code units.`
  },
  metrics,
  created: new Date().toISOString()
}
await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
log(
  `wrote ${dir} (${((await stat(join(dir, 'weights.bin'))).size / 1e6).toFixed(2)} MB weights) in ${((performance.now() - t0) / 1000).toFixed(0)} s`
)
