import { Type } from '@sinclair/typebox'

const Limit = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])
export const PlanSchema = Type.Object({
  textDaily: Limit, textMonthly: Limit, imageDaily: Limit, imageMonthly: Limit,
  rate: Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()])
})
export const PlanPatch = Type.Partial(PlanSchema)
export const PublicKey = Type.Object({ id: Type.String(), name: Type.String(), plan: PlanSchema, created: Type.String(), source: Type.String() })
export const CreateKeyBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), plan: Type.Optional(PlanPatch) })
export const CreatedKey = Type.Object({ key: Type.String({ description: 'shown once; only its hash is kept' }), record: PublicKey })
