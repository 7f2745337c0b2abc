import { Type, type Static } from '@sinclair/typebox'
import { Score } from '../common.js'

export const NER_CATEGORIES = ['name', 'group', 'place'] as const
export const Entity = Type.Object({
  name: Type.String(),
  category: Type.Union(NER_CATEGORIES.map(c => Type.Literal(c))),
  confidence_score: Score,
  start: Type.Integer({ description: 'UTF-16 offset: text.slice(start, end) === name' }),
  end: Type.Integer()
})
export const Entities = Type.Array(Entity)
export const NerReply = Type.Object({ entities: Entities })
export const NerBatchReply = Type.Object({ entities: Type.Array(Entities) })
export type Entity = Static<typeof Entity>
