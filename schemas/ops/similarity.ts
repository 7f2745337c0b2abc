import { Type } from '@sinclair/typebox'
import { ApiKey, LangCode, Score, Text } from '../common.js'

export const SimilarityBody = Type.Object({
  api_key: ApiKey,
  text_1: Text,
  text_2: Text,
  lang_code: Type.Optional(LangCode)
})
export const SimilarityReply = Type.Object({
  similarity_score: Score,
  actual_score: Score,
  normalized_score: Type.Number({ minimum: 0, maximum: 5 })
})
