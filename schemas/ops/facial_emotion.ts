import { Type } from '@sinclair/typebox'
import { Box, TagScore } from './image.js'

export const FACIAL_EMOTION_LABELS = ['Angry', 'Disgust', 'Fear', 'Happy', 'Sad', 'Surprise', 'Neutral'] as const
export const FacialEmotionReply = Type.Object({
  facial_emotion: Type.Array(TagScore),
  faces: Type.Array(Type.Object({ box: Box, facial_emotion: Type.Array(TagScore) }))
})
