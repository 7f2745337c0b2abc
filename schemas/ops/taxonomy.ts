import { Type } from '@sinclair/typebox'
import { Score } from '../common.js'

export const TaxonomyTag = Type.Object({ tag: Type.String({ description: 'IAB-style upper-case tier-1 category' }), confidence_score: Score })
export const TaxonomyList = Type.Array(TaxonomyTag, { maxItems: 3 })
export const TaxonomyReply = Type.Object({ taxonomy: TaxonomyList })
export const TaxonomyBatchReply = Type.Object({ taxonomy: Type.Array(TaxonomyList) })
