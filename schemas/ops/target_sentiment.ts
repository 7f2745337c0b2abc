import { Type, type Static } from '@sinclair/typebox'
import { ApiKey, LangCode, Text, Texts, VISIBLE } from '../common.js'
import { SentimentScores } from './sentiment.js'

export const TARGET_MAX_CHARS = 200
const Aspect = Type.String({
  minLength: 1,
  maxLength: TARGET_MAX_CHARS,
  pattern: VISIBLE,
  description: 'the aspect (target) whose sentiment is wanted; it must occur in the text'
})
const fields = {
  aspect: Type.Optional(Aspect),
  entity: Type.Optional({ ...Aspect, description: "the older clients' name for aspect" }),
  lang_code: Type.Optional(LangCode)
}

export const TargetSentimentBody = Type.Object({ api_key: ApiKey, text: Text, ...fields })
export const TargetSentimentBatchBody = Type.Object({ api_key: ApiKey, text: Texts, ...fields })

export const TargetSentiment = Type.Object({
  sentiment: SentimentScores,
  aspect: Type.String({ description: 'the aspect as asked' }),
  offsets: Type.Array(Type.Object({ start: Type.Integer({ minimum: 0 }), end: Type.Integer({ minimum: 0 }) }), {
    description:
      'where the aspect occurs in the text (character offsets, end exclusive); the scores average its occurrences'
  })
})
export const TargetSentimentReply = TargetSentiment
export const TargetSentimentBatchReply = Type.Object({ batch: Type.Array(TargetSentiment) })
export type TargetSentiment = Static<typeof TargetSentiment>
