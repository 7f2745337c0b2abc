import { Type } from '@sinclair/typebox'
import { Box, TagScore } from './image.js'

export const ObjectRecognizerReply = Type.Object({
  output: Type.Array(TagScore),
  boxes: Type.Optional(Type.Array(Type.Object({ tag: Type.String(), score: TagScore.properties.score, box: Box })))
})
