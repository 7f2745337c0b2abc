import { Type } from '@sinclair/typebox'
import { scoresOf } from '../common.js'

export const INTENT_LABELS = ['news', 'query', 'spam', 'marketing', 'feedback'] as const
export const IntentScores = scoresOf(INTENT_LABELS)
export const IntentReply = Type.Object({ intent: IntentScores })
export const IntentBatchReply = Type.Object({ intent: Type.Array(IntentReply) })
