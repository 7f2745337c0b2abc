import { Type, type Static } from '@sinclair/typebox'
import { Score } from '../common.js'

export const ABUSE_LABELS = ['Non Abusive', 'Abusive'] as const
export const AbuseReply = Type.Object({
  sentence_type: Type.Union(
    ABUSE_LABELS.map(l => Type.Literal(l)),
    { description: 'the more likely of the two' }
  ),
  confidence_score: Score
})
export const AbuseBatchReply = Type.Object({ abuse: Type.Array(AbuseReply) })
export type AbuseReply = Static<typeof AbuseReply>
