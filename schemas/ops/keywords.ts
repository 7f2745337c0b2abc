import { Type, type Static } from '@sinclair/typebox'
import { Score } from '../common.js'

export const Keyword = Type.Object({ keyword: Type.String(), confidence_score: Score })
export const Keywords = Type.Array(Keyword)
export const KeywordsReply = Type.Object({ keywords: Keywords })
export const KeywordsBatchReply = Type.Object({ keywords: Type.Array(Keywords) })
export type Keyword = Static<typeof Keyword>
