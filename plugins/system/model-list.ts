import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'

const ModelSummary = Type.Object({
  name: Type.String(),
  version: Type.Integer(),
  kind: Type.String(),
  description: Type.String(),
  languages: Type.Array(Type.String()),
  labels: Type.Array(Type.String()),
  metrics: Type.Array(
    Type.Object({
      dataset: Type.String(),
      split: Type.String(),
      metric: Type.String(),
      value: Type.Number(),
      baseline: Type.Optional(Type.String())
    })
  ),
  training_data: Type.Array(Type.Object({ name: Type.String(), licence: Type.String() }))
})

// typed through the TypeBox type provider: the answer is checked against its schema's Static<>
const models: FastifyPluginAsyncTypebox = async fastify => {
  fastify.get(
    '/v4/models',
    {
      schema: {
        tags: ['system'],
        summary: 'The models this server has loaded',
        response: {
          200: Type.Object({ backend: Type.Union([Type.String(), Type.Null()]), models: Type.Array(ModelSummary) })
        }
      }
    },
    async () => ({
      backend: fastify.models.backend,
      models: fastify.models.list().map(({ manifest: m }) => ({
        name: m.name,
        version: m.version,
        kind: m.kind,
        description: m.description,
        languages: m.languages,
        labels: m.labels,
        metrics: m.metrics,
        training_data: m.training.data.map(d => ({ name: d.name, licence: d.licence }))
      }))
    })
  )
}

export default models
