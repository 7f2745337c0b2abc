// Cross-validation of a language whose only in-domain gold data is also its measure (German: GermEval
// dev) and the training of its served tagger on all of that data (training/recipes/ner.ts).
import type { NounForms } from '../../lib/text/ner/features.js'
import { rng, shuffle } from './sparse-sgd.js'
import type { Sentence } from '../readers/ner.js'
import { SEED, type CvSource, type LangSpec } from '../readers/ner-sources.js'
import {
  TEMPERATURES,
  applyThresholds,
  bestTemperature,
  calibrationLoss,
  penaliseO,
  pickThresholds,
  scoreSpans,
  type Scored
} from './perceptron-confidence.js'
import { evaluate, pool, type Prf } from './perceptron-tagger.js'
import { fitWithGold } from './ner-fit.js'
import type { NerOutput } from './ner-output.js'
import { CV_ONLY, GRID, O_PENALTIES, log, show } from './ner-settings.js'
import { options } from '../readers/options.js'

/**
 * Folds for cross-validation: the sentences of one source document (GermEval's "#" line) stay
 * together, documents dealt to `k` folds in a seeded random order.
 */
function foldsOf (groups: string[], k: number, seed: number): number[] {
  const docs = shuffle([...new Set(groups)], rng(seed))
  const fold = new Map(docs.map((d, i) => [d, i % k]))
  return groups.map(g => fold.get(g) as number)
}

const merge = (parts: Scored[]): Scored => ({
  spans: parts.flatMap(p => p.spans),
  gold: parts.reduce((a, p) => a + p.gold, 0)
})

/** what every tagger of a cross-validation trains on */
interface CvData {
  lang: string
  spec: LangSpec
  cv: CvSource
  silver: Sentence[]
  gold: Sentence[]
  nouns: NounForms | undefined
  epochs: number
  partial: boolean[]
}

/** a fold's held-out predictions: F1, log-loss at each temperature, spans scored per O penalty and temperature */
interface FoldRun {
  raw: Prf
  loss: number[]
  n: number
  scored: Scored[][]
  history: Prf[]
}

/** each fold (those of `only` if given) tagged by a tagger trained on the other folds and the silver data */
function runFolds (x: CvData, folds: number[], only: number[] | undefined, t1: number): FoldRun[] {
  const { lang, spec, cv, silver, gold, nouns, epochs, partial } = x
  const parts: FoldRun[] = []
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
      `ner ${lang} fold ${k + 1}: ${f.va.length} held-out sentences, uint8, no thresholds: ` +
        `${show(parts[parts.length - 1]!.raw)}; ${((performance.now() - t1) / 1000).toFixed(0)} s`
    )
  }
  return parts
}

// temperature (least held-out log-loss, without O penalty), then the O penalty and thresholds (best
// held-out F1) from the given folds' predictions
function fitOn (ps: FoldRun[]): { temp: number; at: number; d: number; penalty: number; thresholds: number[] } {
  const temp = bestTemperature(
    TEMPERATURES.map((_, i) => ps.reduce((a, p) => a + (p.loss[i] as number), 0)),
    ps.reduce((a, p) => a + p.n, 0)
  )
  const at = TEMPERATURES.indexOf(temp)
  const fits = O_PENALTIES.map((_, d) => pickThresholds(merge(ps.map(p => p.scored[d]![at] as Scored)), GRID))
  const d = fits.reduce((best, x, i) => (x.val.f1 > (fits[best] as typeof x).val.f1 ? i : best), 0)
  const thresholds = (fits[d] as (typeof fits)[number]).thresholds
  return { temp, at, d, penalty: O_PENALTIES[d] as number, thresholds }
}

/**
 * Each fold's figure with the temperature, O penalty and thresholds fitted on the other folds (after the
 * pooled figure of each O penalty without thresholds, logged).
 */
function heldOutScores (lang: string, parts: FoldRun[]): Prf[] {
  for (const [d, penalty] of O_PENALTIES.entries()) {
    const t = TEMPERATURES.indexOf(1)
    const raw = pool(parts.map(p => applyThresholds(p.scored[d]![t] as Scored, [0, 0, 0])))
    log(`ner ${lang} O penalty ${penalty}: pooled, no thresholds: ${show(raw)}`)
  }
  return parts.map((p, k) => {
    const o = fitOn(parts.filter((_, j) => j !== k))
    const v = applyThresholds(p.scored[o.d]![o.at] as Scored, o.thresholds)
    log(
      `ner ${lang} fold ${k + 1}: temperature ${o.temp}, O penalty ${o.penalty}, ` +
        `thresholds ${o.thresholds.join('/')} (from the other folds): ${show(v)}`
    )
    return v
  })
}

/** the manifest's note on a cross-validated language */
function cvNote (
  lang: string,
  epochs: number,
  cv: CvSource,
  all: { temp: number; penalty: number; thresholds: number[] }
): string {
  const share = cv.silverShare < 1 ? ` and its own random ${cv.silverShare * 100}% of the silver sentences` : ''
  const bagging =
    cv.bag > 1 ? `, the mean of ${cv.bag} perceptrons each trained on its own shuffle order${share} (bagging)` : ''
  const adapt = cv.adapt
    ? ', with target-domain weights of its own (feature augmentation, Daume 2007; served: shared + target weights)'
    : ''
  const penalty =
    all.penalty === 0 ? '' : `O penalty ${all.penalty} (taken from every transition into O: more entities proposed), `
  const withPenalty = O_PENALTIES.length > 1 ? ', O penalty' : ''
  return (
    `${lang}: ${epochs} epochs (fixed)${bagging}, ${cv.name} ${cv.split} ${cv.repeat} times among the training ` +
    `sentences and ${cv.lexiconWeight} times in the lexicon${adapt}, temperature ${Number(all.temp.toFixed(3))}, ` +
    `${penalty}PER/ORG/LOC entities below confidence ${all.thresholds.join('/')} dropped ` +
    `(temperature${withPenalty} and thresholds fitted on the ${cv.folds}-fold cross-validation's held-out ` +
    "predictions); its figure below is that cross-validation's, pooled over the held-out folds (folds by source " +
    `document), each scored by a tagger that did not see it, with temperature${withPenalty} and thresholds ` +
    'fitted on the other folds; the data mix, gold weights and epoch count were chosen by that figure, so it is ' +
    'slightly optimistic'
  )
}

/**
 * The served tagger of a cross-validated language, trained on all of its gold data, its temperature, O
 * penalty and thresholds fitted on every fold's held-out predictions; its figure is the cross-validation's.
 */
function trainOnAll (x: CvData, parts: FoldRun[], held: Prf[], pooled: Prf, mean: number, out: NerOutput): void {
  const { lang, spec, cv, silver, gold, nouns, epochs, partial } = x
  const all = fitOn(parts)
  const f = fitWithGold(silver, gold, cv, [], spec.lexicon, nouns, epochs, lang, partial)
  out.temperature[lang] = all.temp
  out.minConfidence[lang] = all.thresholds
  log(
    `ner ${lang}: trained on all ${gold.length} ${cv.name} sentences; temperature ${all.temp}, ` +
      `O penalty ${all.penalty}, thresholds PER/ORG/LOC ${all.thresholds.join('/')} from the held-out predictions`
  )
  out.data.push({
    name: `${cv.name} [${lang}]`,
    path: cv.path,
    licence: cv.licence,
    split:
      `${cv.split} (all of it, the only in-domain gold data: ${cv.repeat} times among the training sentences; ` +
      'outer PER/ORG/LOC, OTH as MISC, *deriv and *part as O)',
    rows: gold.length
  })
  out.saveLanguage(lang, f, f.lex, penaliseO(f.model.T, all.penalty), nouns)
  out.metrics.push({
    dataset: cv.name,
    split:
      `${cv.split}, ${cv.folds}-fold cross-validated (folds by source document, seed ${SEED}; ` +
      'outer PER/ORG/LOC, *deriv and *part as O): the shipped model trains on all of it',
    metric:
      "entity F1 (exact span, PER/ORG/LOC; sentences cut by the service's tokeniser), " +
      `pooled over the ${cv.folds} held-out folds, each tagged by a model trained on the other ${cv.folds - 1} ` +
      `and the silver data (fold F1 ${held.map(v => v.f1.toFixed(3)).join(', ')}; mean ${mean.toFixed(4)}; ` +
      `P ${pooled.p.toFixed(3)} R ${pooled.r.toFixed(3)})`,
    value: Number(pooled.f1.toFixed(4)),
    baseline: cv.baseline
  })
  out.notes.push(cvNote(lang, epochs, cv, all))
}

/**
 * A language whose only in-domain gold data is also its measure (German: GermEval dev). Each of
 * cv.folds folds is tagged by a tagger trained on the other folds and the silver data, for a fixed
 * number of epochs; its confidence temperature and thresholds are fitted on the other folds'
 * held-out predictions, never its own. The figure is F1 pooled over all held-out predictions (per
 * fold and mean beside it). The served tagger then trains on all the gold data, its temperature and
 * thresholds fitted on every fold's held-out predictions.
 */
export function crossValidate (
  lang: string,
  spec: LangSpec,
  cv: CvSource,
  silver: Sentence[],
  retok: (x: Sentence) => Sentence,
  nouns: NounForms | undefined,
  partial: boolean[],
  out: NerOutput
): void {
  const t1 = performance.now()
  const gold = cv.read().map(retok)
  const folds = foldsOf(cv.groups(), cv.folds, SEED)
  if (folds.length !== gold.length) {
    throw new Error(`${cv.name}: ${folds.length} source lines for ${gold.length} sentences`)
  }
  const epochs = options.nerEpochs ?? spec.epochs
  log(
    `ner ${lang}: ${silver.length} silver training sentences; ${gold.length} ${cv.name} sentences ` +
      `(x${cv.repeat} in training, x${cv.lexiconWeight} in the lexicon${cv.adapt ? ', target-domain weights' : ''}), ` +
      `${cv.folds}-fold cross-validation, ${epochs} epochs`
  )
  const only = options.nerCvFolds
  const x: CvData = { lang, spec, cv, silver, gold, nouns, epochs, partial }
  const parts = runFolds(x, folds, only, t1)
  // a quick proxy for experiments: some folds only (NER_CV_FOLDS=1,2), before thresholds, nothing written
  if (only !== undefined) {
    log(`ner ${lang} folds ${only.join(',')} pooled, no thresholds: ${show(pool(parts.map(p => p.raw)))}`)
    process.exit(0)
  }
  const held = heldOutScores(lang, parts)
  const curve = parts[0]!.history.map((_, e) => pool(parts.map(p => p.history[e] as Prf)).f1.toFixed(4))
  const pooled = pool(held)
  const mean = held.reduce((a, v) => a + v.f1, 0) / held.length
  const raw = pool(parts.map(p => p.raw))
  log(
    `ner ${lang} cross-validated: pooled ${show(pooled)}; fold F1 ${held.map(v => v.f1.toFixed(4)).join(' ')}, ` +
      `mean ${mean.toFixed(4)}; without thresholds pooled F1 ${raw.f1.toFixed(4)}; ` +
      `pooled F1 by epoch (float weights, no thresholds) ${curve.join(' ')}`
  )
  if (CV_ONLY) return
  trainOnAll(x, parts, held, pooled, mean, out)
}
