// The service is itself a plugin: infrastructure first (each awaited, in dependency order),
// then one plugin per operation under /v4 (image operations also under /v3, as real clients call
// them there), then the system routes.
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import config, { type AppOptions } from './plugins/core/context.js'
import errors from './plugins/core/errors.js'
import lifetime from './plugins/core/lifetime.js'
import cors from './plugins/core/cors.js'
import request from './plugins/core/request.js'
import store from './plugins/core/store.js'
import metrics from './plugins/core/metrics.js'
import openapi from './plugins/core/openapi.js'
import models from './plugins/core/model-registry.js'
import rateLimit from './plugins/core/rate-limit.js'
import auth from './plugins/core/auth.js'
import quota from './plugins/core/quota.js'
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
import languageDetection from './plugins/ops/language_detection.js'
import multilangKeywords from './plugins/ops/multilang_keywords.js'
import abuse from './plugins/ops/abuse.js'
import phraseExtractor from './plugins/ops/phrase_extractor.js'
import nsfw from './plugins/ops/nsfw.js'
import targetSentiment from './plugins/ops/target_sentiment.js'
import customClassifier from './plugins/ops/custom_classifier.js'
import notOffered from './plugins/ops/not_offered.js'
import health from './plugins/system/health.js'
import modelList from './plugins/system/model-list.js'
import usage from './plugins/system/usage.js'
import admin from './plugins/system/admin.js'
import dashboard from './plugins/system/dashboard.js'

export type { AppOptions }

export const TEXT_OPS = [
  sentiment,
  similarity,
  ner,
  taxonomy,
  keywords,
  emotion,
  sarcasm,
  intent,
  newIntent,
  languageDetection,
  multilangKeywords,
  abuse,
  phraseExtractor,
  targetSentiment,
  customClassifier
]
export const IMAGE_OPS = [facialEmotion, objectRecognizer, nsfw]

async function app (fastify: FastifyInstance, opts: AppOptions) {
  await fastify.register(config, opts)
  await fastify.register(errors)
  await fastify.register(lifetime)
  await fastify.register(cors)
  await fastify.register(pressure)
  await fastify.register(request)
  await fastify.register(store)
  // metering before any route (the /docs routes of openapi too), so every request has its decorations
  await fastify.register(rateLimit)
  await fastify.register(auth)
  await fastify.register(quota)
  await fastify.register(metrics)
  await fastify.register(openapi)
  await fastify.register(models)

  for (const op of TEXT_OPS) await fastify.register(op, { prefix: '/v4' })
  for (const op of IMAGE_OPS) {
    await fastify.register(op, { prefix: '/v4' })
    await fastify.register(op, { prefix: '/v3' })
  }
  // text_parser and popularity: 501 (the Node client's popularity by url calls /v3)
  await fastify.register(notOffered, { prefix: '/v4' })
  await fastify.register(notOffered, { prefix: '/v3' })
  await fastify.register(health)
  await fastify.register(modelList)
  await fastify.register(usage)
  await fastify.register(admin, { prefix: '/admin' })
  await fastify.register(dashboard)
}

// Wrapped so that its decorators (config, store, models ...) are visible to whoever builds it.
export default fp(app, { name: 'app' })
