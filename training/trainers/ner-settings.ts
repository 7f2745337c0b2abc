// The settings of NER training (training/recipes/ner.ts) that its helpers share: hashed buckets,
// cross-validation only, the threshold grid, the O penalties and partial labels tried (environment
// overrides for experiments), and the training log.
import type { Prf } from './perceptron-tagger.js'

const env = process.env
export const BUCKETS = Number(env.NER_BUCKETS ?? 2 ** 18)
export const log = (s: string) => process.stderr.write(s + '\n')
export const CV_ONLY = process.argv.includes('--cv-de')
export const GRID = [0, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8]
// penalties on the O label tried for a cross-validated language (penaliseO in ner-perceptron.ts)
export const O_PENALTIES = (env.NER_O_PENALTIES ?? '0').split(',').map(Number)

// which O labels of partly labelled (silver) sentences are left free: NER_DE_PARTIAL=name (capitalised
// words that are not common-noun forms), cap (every capitalised word), 0 (none: silver is taken as it is)
export const PARTIAL = env.NER_DE_PARTIAL ?? '0'

export function show (v: Prf): string {
  return `F1 ${v.f1.toFixed(4)} P ${v.p.toFixed(4)} R ${v.r.toFixed(4)} (${v.tp}/${v.pred} predicted, ${v.gold} gold)`
}
