import type { FastifyInstance } from 'fastify'
import { textOperation } from '../../lib/routes.js'
import { assertLabels, classify } from '../../lib/classify.js'
import { SENTIMENT_LABELS, SentimentBatchReply, SentimentReply, type SentimentScores } from '../../schemas/ops/sentiment.js'

export default async function sentiment (fastify: FastifyInstance) {
  assertLabels(fastify, 'sentiment', SENTIMENT_LABELS)
  textOperation<SentimentScores>(fastify, {
    op: 'sentiment',
    model: 'sentiment',
    summary: 'Sentiment of a text: negative, neutral and positive scores',
    batch: true,
    detect: true,
    models: ['sentiment-multilingual'],
    reply: SentimentReply,
    batchReply: SentimentBatchReply,
    run: classify(SENTIMENT_LABELS),
    single: (s) => ({ sentiment: s }),
    many: (rs) => ({ sentiment: rs })
  })
}
