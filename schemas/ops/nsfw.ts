import { Type } from '@sinclair/typebox'
import { Score } from '../common.js'

export const NsfwReply = Type.Object({
  output: Type.Union([Type.Literal('safe to open at work'), Type.Literal('not safe to open at work')]),
  prob: Score
})
