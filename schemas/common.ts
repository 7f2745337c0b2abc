import { Type, type Static } from '@sinclair/typebox'

export const ErrorBody = Type.Object(
  {
    code: Type.Integer({ description: 'the HTTP status' }),
    error: Type.String({ description: 'the reason phrase' }),
    message: Type.String({ description: 'what was wrong and how to fix it' })
  },
  { $id: 'ErrorBody' }
)
export type ErrorBody = Static<typeof ErrorBody>

export const Score = Type.Number({ minimum: 0, maximum: 1 })
export const ApiKey = Type.String({ description: 'your API key (body or query string)' })
export const LangCode = Type.String({ minLength: 1, description: 'language code; omitted means en' })
/** a character that is not whitespace, a control character (NUL ...) or an invisible format mark */
export const VISIBLE = '[^\\s\\p{Cc}\\p{Cf}]'
export const Text = Type.String({ minLength: 1, pattern: VISIBLE, description: 'the text to analyse' })
export const Texts = Type.Array(Text, {
  minItems: 1,
  description: 'the texts: a JSON-array string, repeated or indexed (text[0]) fields, or a JSON array'
})

export const SingleTextBody = Type.Object({ api_key: ApiKey, text: Text, lang_code: Type.Optional(LangCode) })
export const BatchTextBody = Type.Object({ api_key: ApiKey, text: Texts, lang_code: Type.Optional(LangCode) })
export type SingleTextBody = Static<typeof SingleTextBody>
export type BatchTextBody = Static<typeof BatchTextBody>

/** Error responses every metered operation may give. */
export function errorResponses (...codes: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(codes.map(c => [c, ErrorBody]))
}
export const TEXT_ERRORS = [400, 401, 403, 406, 413, 415, 429, 503] as const
export const IMAGE_ERRORS = [400, 401, 403, 406, 413, 415, 429, 503] as const

/** An object of one score per label, in the order given. */
export function scoresOf<L extends string> (labels: readonly L[]) {
  return Type.Object(Object.fromEntries(labels.map(l => [l, Score])) as Record<L, typeof Score>)
}
