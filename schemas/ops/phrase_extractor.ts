import { Type, type Static } from '@sinclair/typebox'

export const Phrase = Type.Object({
  keyword: Type.String({ description: 'a noun phrase of the text' }),
  relevance_score: Type.Integer({ minimum: 1, description: 'how many times the phrase occurs in the text' })
})
export const PhraseExtractorReply = Type.Object({ keywords: Type.Array(Phrase) })
export const PhraseExtractorBatchReply = Type.Object({ keywords: Type.Array(Type.Array(Phrase)) })
export type Phrase = Static<typeof Phrase>
