// The service is itself a plugin: infrastructure first (each awaited, in dependency order),
// then one plugin per operation under /v4 (image operations also under /v3, as real clients call
// them there), then the system routes.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import config, { type AppOptions } from './plugins/core/config.js'
import errors from './plugins/core/errors.js'
import cors from './plugins/core/cors.js'
import request from './plugins/core/request.js'
import store from './plugins/core/store.js'
import metrics from './plugins/core/metrics.js'
import openapi from './plugins/core/openapi.js'
import models from './plugins/core/models.js'
import metering from './plugins/core/metering.js'
import pressure from './plugins/core/pressure.js'
import sentiment from './plugins/ops/sentiment.js'
import similarity from './plugins/ops/similarity.js'
import ner from './plugins/ops/ner.js'
import taxonomy from './plugins/ops/taxonomy.js'
import keywords from './plugins/ops/keywords.js'
import emotion from './plugins/ops/emotion.js'
import sarcasm from './plugins/ops/sarcasm.js'
import intent from './plugins/ops/intent.js'
import newIntent from './plugins/ops/new_intent.js'
import facialEmotion from './plugins/ops/facial_emotion.js'
import objectRecognizer from './plugins/ops/object_recognizer.js'
import health from './plugins/system/health.js'
import modelList from './plugins/system/models.js'
import usage from './plugins/system/usage.js'
import admin from './plugins/system/admin.js'
import dashboard from './plugins/system/dashboard.js'

export type { AppOptions }

export const TEXT_OPS = [sentiment, similarity, ner, taxonomy, keywords, emotion, sarcasm, intent, newIntent]
export const IMAGE_OPS = [facialEmotion, objectRecognizer]

async function app (fastify: FastifyInstance, opts: AppOptions) {
  await fastify.register(config, opts)
  await fastify.register(errors)
  await fastify.register(cors)
  await fastify.register(pressure)
  await fastify.register(request)
  await fastify.register(store)
  await fastify.register(metrics)
  await fastify.register(openapi)
  await fastify.register(models)
  await fastify.register(metering)

  for (const op of TEXT_OPS) await fastify.register(op, { prefix: '/v4' })
  for (const op of IMAGE_OPS) {
    await fastify.register(op, { prefix: '/v4' })
    await fastify.register(op, { prefix: '/v3' })
  }
  await fastify.register(health)
  await fastify.register(modelList)
  await fastify.register(usage)
  await fastify.register(admin, { prefix: '/admin' })
  await fastify.register(dashboard)
}

// Wrapped so that its decorators (config, store, models ...) are visible to whoever builds it.
export default fp(app, { name: 'app' })
