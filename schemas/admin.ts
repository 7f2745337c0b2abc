import { Type } from '@sinclair/typebox'
import { PlanSchema } from './env.js'

export { PlanSchema }
/** the fields of a plan to set; any other field is refused (400), never ignored */
export const PlanPatch = Type.Partial(PlanSchema, { additionalProperties: false })
export const PublicKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  plan: PlanSchema,
  created: Type.String(),
  source: Type.String()
})
export const CreateKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    plan: Type.Optional(PlanPatch)
  },
  { additionalProperties: false }
)
export const KeyParams = Type.Object({ id: Type.String() })
export const PlanChange = Type.Object({ plan: PlanPatch }, { additionalProperties: false })
export const CreatedKey = Type.Object({
  key: Type.String({ description: 'shown once; only its hash is kept' }),
  record: PublicKey
})
