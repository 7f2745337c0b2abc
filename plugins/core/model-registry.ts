import fp from 'fastify-plugin'
import { Errors } from '../../lib/errors.js'
import type { LoadedModel } from '../../lib/serving/loaded-model.js'
import { ModelRegistry } from '../../lib/serving/registry.js'

declare module 'fastify' {
  interface FastifyInstance {
    models: ModelRegistry
    /** the model named, or a 503 naming what is missing */
    needModel<In = string, Out = number[]>(name: string, op: string): LoadedModel<In, Out>
  }
}

export default fp(
  async fastify => {
    const registry = new ModelRegistry()
    const { config } = fastify
    await registry.loadAll(
      config.modelStore,
      m => fastify.log.info(m),
      {
        imageMaxPixels: config.imageMaxPixels,
        image: {
          workers: config.imageWorkers,
          queue: config.imageQueue,
          objectTop: config.objectTop,
          facialEmotionCrop: config.facialEmotionCrop
        },
        tfBackend: config.tfBackend,
        encoder: { threads: config.encoderThreads, maxBatch: 64, cacheSize: config.encoderCache }
      },
      { workers: config.textWorkers, queue: config.textQueue, off: config.modelsOff }
    )
    fastify.decorate('models', registry)
    fastify.decorate('needModel', function <In, Out>(name: string, op: string): LoadedModel<In, Out> {
      const m = registry.get<In, Out>(name)
      if (m === undefined) throw new Errors.ModelMissing(op, name)
      return m
    })
    fastify.addHook('onClose', async () => {
      await registry.close()
    })
  },
  { name: 'models', dependencies: ['config'] }
)
