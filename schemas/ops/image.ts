// Shared by facial_emotion and object_recognizer: an image as a multipart `file` or an https `url`.
import { Type } from '@sinclair/typebox'
import { ApiKey, Score } from '../common.js'

export const ImageBody = Type.Object({
  api_key: ApiKey,
  file: Type.Optional(
    Type.Any({ description: 'the image, as a multipart file part (jpeg, png, bmp or tiff; at most 10 MB)' })
  ),
  url: Type.Optional(Type.String({ description: 'an https address of the image' }))
})
export const TagScore = Type.Object({ tag: Type.String(), score: Score })
export const Box = Type.Object({ x: Type.Number(), y: Type.Number(), width: Type.Number(), height: Type.Number() })
