import { Type, type Static } from '@sinclair/typebox'
import { ApiKey, LangCode, Text, Texts, scoresOf } from '../common.js'
import { IntentScores } from './intent.js'

export const FEEDBACK_LABELS = ['complaint', 'suggestion', 'appreciation'] as const
export const FeedbackScores = scoresOf(FEEDBACK_LABELS)
const Query = Type.Optional(
  Type.Literal('feedback', {
    description: 'with "feedback", feedback is split into complaint, suggestion and appreciation'
  })
)
export const NewIntentBody = Type.Object({
  api_key: ApiKey,
  text: Text,
  query: Query,
  lang_code: Type.Optional(LangCode)
})
export const NewIntentBatchBody = Type.Object({
  api_key: ApiKey,
  text: Texts,
  query: Query,
  lang_code: Type.Optional(LangCode)
})
export const NewIntentResult = Type.Object({ intent: IntentScores, feedback: Type.Optional(FeedbackScores) })
export const NewIntentReply = NewIntentResult
export const NewIntentBatchReply = Type.Object({ intent: Type.Array(NewIntentResult) })
export type NewIntentResult = Static<typeof NewIntentResult>
