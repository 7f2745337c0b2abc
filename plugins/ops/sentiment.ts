import type { FastifyInstance } from 'fastify'
import { textOperation } from '../../lib/http/text-operation.js'
import { assertLabels, labelled } from '../../lib/http/classify.js'
import { SENTIMENT_LABELS, SentimentBatchReply, SentimentReply } from '../../schemas/ops/sentiment.js'

export default async function sentiment (fastify: FastifyInstance) {
  assertLabels(fastify, 'sentiment', SENTIMENT_LABELS)
  // made outside the spec, so that the results' type is inferred from it
  const fromOutputs = labelled(SENTIMENT_LABELS)
  textOperation(fastify, {
    op: 'sentiment',
    model: 'sentiment',
    summary: 'Sentiment of a text: negative, neutral and positive scores',
    batch: true,
    detect: true,
    fromOutputs,
    moreLanguages: ['sentiment-multilingual'],
    // English from the blend of the word-order CNN and the encoder head, when it is installed
    preferred: ['sentiment-blend'],
    reply: SentimentReply,
    batchReply: SentimentBatchReply,
    single: s => ({ sentiment: s }),
    many: rs => ({ sentiment: rs })
  })
  // the Node client's multilingualSentiment posts text and lang_code here: the same answer
  textOperation(fastify, {
    op: 'multilang',
    model: 'sentiment',
    summary: "Sentiment of a text in its language (the Node client's multilingualSentiment): as /v4/sentiment",
    batch: false,
    detect: true,
    fromOutputs,
    moreLanguages: ['sentiment-multilingual'],
    preferred: ['sentiment-blend'],
    reply: SentimentReply,
    single: s => ({ sentiment: s })
  })
}
