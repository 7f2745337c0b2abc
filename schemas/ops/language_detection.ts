import { Type, type Static } from '@sinclair/typebox'
import { Score } from '../common.js'

export const LanguageGuess = Type.Object({
  output: Type.String({ description: "the language's English name, e.g. French" }),
  prob: Score,
  lang_code: Type.String({ description: 'ISO 639-1 code (an addition to the ParallelDots answer)' })
})
export const LanguageReply = LanguageGuess
/** The batch answer: one guess per text, in input order, under `batch`. */
export const LanguageBatchReply = Type.Object({ batch: Type.Array(LanguageGuess) })
export type LanguageGuess = Static<typeof LanguageGuess>
