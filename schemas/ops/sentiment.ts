import { Type, type Static } from '@sinclair/typebox'
import { scoresOf } from '../common.js'

export const SENTIMENT_LABELS = ['negative', 'neutral', 'positive'] as const
export const SentimentScores = scoresOf(SENTIMENT_LABELS)
export const SentimentReply = Type.Object({ sentiment: SentimentScores })
export const SentimentBatchReply = Type.Object({ sentiment: Type.Array(SentimentScores) })
export type SentimentScores = Static<typeof SentimentScores>
