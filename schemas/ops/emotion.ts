import { Type } from '@sinclair/typebox'
import { scoresOf } from '../common.js'

export const EMOTION_LABELS = ['Fear', 'Happy', 'Angry', 'Sad', 'Excited', 'Bored'] as const
export const EmotionScores = scoresOf(EMOTION_LABELS)
export const EmotionReply = Type.Object({ emotion: EmotionScores })
export const EmotionBatchReply = Type.Object({ emotion: Type.Array(EmotionScores) })
