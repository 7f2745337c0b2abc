// The settings of NER training (training/recipes/ner.ts) that its helpers share: hashed buckets,
// cross-validation only, the threshold grid, the O penalties and partial labels tried (environment
// overrides for experiments), and the training log.
import type { Prf } from './perceptron-tagger.js'
import { options } from '../readers/options.js'

export const BUCKETS = options.nerBuckets
export const log = (s: string) => process.stderr.write(s + '\n')
export const CV_ONLY = options.cvDe
export const GRID = [0, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8]
// penalties on the O label tried for a cross-validated language (penaliseO in ner-perceptron.ts)
export const O_PENALTIES = options.nerOPenalties

// which O labels of partly labelled (silver) sentences are left free: NER_DE_PARTIAL=name (capitalised
// words that are not common-noun forms), cap (every capitalised word), 0 (none: silver is taken as it is)
export const PARTIAL = options.nerDePartial

export function show (v: Prf): string {
  return `F1 ${v.f1.toFixed(4)} P ${v.p.toFixed(4)} R ${v.r.toFixed(4)} (${v.tp}/${v.pred} predicted, ${v.gold} gold)`
}
