import { Type, type Static } from '@sinclair/typebox'
import { Score } from '../common.js'

export const TaxonomyTag = Type.Object({
  tag: Type.String({
    description:
      'IAB Content Taxonomy 3.1 tier-1 category as an upper-case tag (the model manifest maps each tag to its IAB id ' +
      'and name); each confidence_score is an independent probability, so a text that fits no category scores low ' +
      'on all three'
  }),
  confidence_score: Score
})
export const TaxonomyList = Type.Array(TaxonomyTag, { maxItems: 3 })
export const TaxonomyReply = Type.Object({ taxonomy: TaxonomyList })
export const TaxonomyBatchReply = Type.Object({ taxonomy: Type.Array(TaxonomyList) })
export type TaxonomyList = Static<typeof TaxonomyList>
