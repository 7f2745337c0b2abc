import { Type } from '@sinclair/typebox'
import { PlanSchema } from './env.js'

export { PlanSchema }
export const PlanPatch = Type.Partial(PlanSchema)
export const PublicKey = Type.Object({ id: Type.String(), name: Type.String(), plan: PlanSchema, created: Type.String(), source: Type.String() })
export const CreateKeyBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), plan: Type.Optional(PlanPatch) })
export const KeyParams = Type.Object({ id: Type.String() })
export const PlanChange = Type.Object({ plan: PlanPatch })
export const CreatedKey = Type.Object({ key: Type.String({ description: 'shown once; only its hash is kept' }), record: PublicKey })
