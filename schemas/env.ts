// Configuration, read from the environment once at start-up (lib/config.ts) and nowhere else.
// Every variable is in docs/configuration.md.
import { Type, type Static } from '@sinclair/typebox'

const OptInt = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])

/** A key's plan: quotas per UTC day and calendar month (null: no limit) and requests per second. */
export const PlanSchema = Type.Object({
  textDaily: OptInt,
  textMonthly: OptInt,
  imageDaily: OptInt,
  imageMonthly: OptInt,
  rate: Type.Union([Type.Number({ exclusiveMinimum: 0 }), Type.Null()])
})

export const Config = Type.Object({
  host: Type.String(),
  port: Type.Integer(),
  redisUrl: Type.Union([Type.String(), Type.Null()]),
  apiKeys: Type.Array(Type.String()),
  defaultPlan: PlanSchema,
  anonymousRate: Type.Number({ description: 'requests per second per client address without a valid key' }),
  adminToken: Type.Union([Type.String(), Type.Null()]),
  dashboardUrl: Type.String(),
  dataDir: Type.String(),
  modelStore: Type.String(),
  modelsOff: Type.Array(Type.String(), { description: 'model folders of the store not loaded (MODELS_OFF)' }),
  logLevel: Type.String(),
  batchMax: Type.Integer(),
  textMaxChars: Type.Integer(),
  bodyLimit: Type.Integer(),
  imageMaxBytes: Type.Integer(),
  imageMaxPixels: Type.Integer(),
  imageFetchTimeoutMs: Type.Integer(),
  textWorkers: Type.Integer({
    minimum: 0,
    description: 'text inference worker threads; 0 runs text models on the main thread'
  }),
  textQueue: Type.Integer({
    minimum: 0,
    description: 'texts waiting for a text worker before new calls are refused with 503'
  }),
  encoderThreads: Type.Integer({ minimum: 1, description: 'threads of one forward pass of the text encoder' }),
  encoderCache: Type.Integer({ minimum: 0, description: 'recent texts whose encoder vectors each process keeps' }),
  imageWorkers: Type.Integer({ minimum: 1, description: 'image worker threads' }),
  imageQueue: Type.Integer({
    minimum: 1,
    description: 'images waiting for an image worker before new calls are refused with 503'
  }),
  objectTop: Type.Integer({ minimum: 1, description: 'labels answered by object_recognizer' }),
  facialEmotionCrop: Type.Union([Type.Literal('box'), Type.Literal('detector')], {
    description:
      "the face crop given to face-api's expression net: Human's box widened, " +
      "or face-api's own detector and landmarks (slower)"
  }),
  tfBackend: Type.Union([Type.Literal('auto'), Type.Literal('wasm'), Type.Literal('cpu')], {
    description: 'auto: tfjs-node where it installed, else wasm'
  }),
  maxEventLoopDelayMs: Type.Integer({ minimum: 0 }),
  maxHeapBytes: Type.Integer({ minimum: 0 }),
  imageFetchAllowHosts: Type.Array(Type.String(), {
    description: 'hosts fetched even though private (tests, trusted deployments)'
  }),
  imageFetchCaFile: Type.Union([Type.String(), Type.Null()]),
  requestTimeoutMs: Type.Integer(),
  failOpen: Type.Boolean(),
  trustProxy: Type.Boolean(),
  redisTimeoutMs: Type.Integer(),
  corsOrigins: Type.Array(Type.String(), {
    description: 'origins whose pages may call the API from a browser (CORS); ["*"] for any; empty: none'
  })
})
export type Config = Static<typeof Config>
export type Plan = Static<typeof PlanSchema>
