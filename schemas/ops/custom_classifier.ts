import { Type, type Static } from '@sinclair/typebox'
import { ApiKey, LangCode, Score, Text } from '../common.js'

export const MAX_LABELS = 25
export const MAX_KEYWORDS = 50
export const MAX_LABEL_CHARS = 100

const Label = Type.String({ minLength: 1, maxLength: MAX_LABEL_CHARS })
export const Category = Type.Union([
  Type.String({
    minLength: 1,
    description:
      'a JSON list of labels (["sports", "politics"]) or a JSON object of label to keywords ' +
      '({"sports": ["match", "team"]})'
  }),
  Type.Array(Label, { description: 'the labels (JSON bodies)' }),
  Type.Record(Type.String(), Type.Union([Type.Array(Type.String()), Type.String()]), {
    description: 'label to keywords (JSON bodies)'
  })
])
export const CustomClassifierBody = Type.Object({
  api_key: ApiKey,
  text: Text,
  category: Category,
  lang_code: Type.Optional(LangCode)
})

const ByCategory = Type.Object({ category: Type.String(), confidence_score: Score })
const ByTag = Type.Object({ tag: Type.String(), confidence_score: Score })
export const CustomClassifierReply = Type.Object({
  taxonomy: Type.Union([Type.Array(ByCategory), Type.Array(ByTag)], {
    description:
      'every label, most likely first: {category, confidence_score} for a list of labels, ' +
      '{tag, confidence_score} for an object of keywords (as the clients of each era read it)'
  })
})
export type CustomClassifierReply = Static<typeof CustomClassifierReply>
