import { Type } from '@sinclair/typebox'
import { ApiKey } from './common.js'

const Count = Type.Union([Type.Integer(), Type.Null()])
export const CounterSchema = Type.Object({ used: Type.Integer(), limit: Count, remaining: Count, reset: Type.String() })
const Period = Type.Object({ daily: CounterSchema, monthly: CounterSchema })
export const UsageBody = Type.Object({ api_key: ApiKey })
export const UsageReply = Type.Object({
  key: Type.Object({ id: Type.String(), name: Type.String() }),
  rate_limit: Type.Union([Type.Number(), Type.Null()], { description: 'requests per second; null is no limit' }),
  text: Period,
  image: Period,
  history: Type.Array(Type.Object({ day: Type.String(), op: Type.String(), units: Type.Integer() }), {
    description: 'units per operation and UTC day, last 30 days'
  })
})
