import type { FastifyInstance } from 'fastify'
import { textOperation } from '../../lib/routes.js'
import { assertLabels, classify } from '../../lib/classify.js'
import { INTENT_LABELS, IntentBatchReply, IntentReply } from '../../schemas/ops/intent.js'

export default async function intent (fastify: FastifyInstance) {
  assertLabels(fastify, 'intent', INTENT_LABELS)
  textOperation<Record<string, number>>(fastify, {
    op: 'intent',
    model: 'intent',
    summary: 'Intent: news, query, spam, marketing and feedback scores',
    batch: true,
    reply: IntentReply,
    batchReply: IntentBatchReply,
    run: classify(INTENT_LABELS),
    single: (i) => ({ intent: i }),
    many: (rs) => ({ intent: rs.map((i) => ({ intent: i })) })
  })
}
