// The word-vector input of a text classifier (features.json names the shared table): the SIF-weighted,
// L2-normalised mean of the text's word vectors, and, when features.json asks for negatedVectors, the
// same mean over the words under negation only (lib/text/words/negation.ts; zeros when none is), so that
// "not good" does not read as "good" to the word-vector part. Training (training/trainers/sparse-sgd.ts) and
// serving (lib/text/bag/classifier.ts) both compute it here.
import { tokens, type FeatureConfig } from './features.js'
import { mayNegate, negationScope } from '../words/negation.js'
import { vectorWords, type WordVectors } from '../words/vectors.js'

/** How many numbers the word-vector input of a text has. */
export const inputDim = (cfg: FeatureConfig, vectors: WordVectors) =>
  vectors.dim * (cfg.negatedVectors === true ? 2 : 1)

/** The words of a text under negation, as the word-vector table spells them. */
export function negatedWords (text: string, maxChars: number): string[] {
  if (!mayNegate(text.slice(0, maxChars).toLowerCase())) return []
  const toks = tokens(text, maxChars)
  const scope = negationScope(toks)
  const out: string[] = []
  for (let i = 0; i < toks.length; i++) if (scope[i] === 1) out.push(...vectorWords(toks[i] as string))
  return out
}

/** Writes the text's word-vector input (inputDim numbers) into out. */
export function sentenceInput (text: string, cfg: FeatureConfig, vectors: WordVectors, out: Float32Array): void {
  const all = out.subarray(0, vectors.dim)
  vectors.sentence(vectorWords(text, cfg.maxChars), all)
  if (cfg.negatedVectors === true) {
    vectors.sentence(negatedWords(text, cfg.maxChars), out.subarray(vectors.dim, 2 * vectors.dim))
  }
}

/**
 * Each text's word-vector input (the SIF-weighted, L2-normalised mean; sentenceInput above), as
 * training computed it (training/trainers/sparse-sgd.ts featuriseWith).
 */
export function sentenceVectors (texts: string[], cfg: FeatureConfig, vectors: WordVectors): Float32Array {
  const dim = inputDim(cfg, vectors)
  const out = new Float32Array(texts.length * dim)
  const one = new Float32Array(dim)
  texts.forEach((t, i) => {
    sentenceInput(t, cfg, vectors, one)
    out.set(one, i * dim)
  })
  return out
}
