import type { FastifyInstance } from 'fastify'
import { textOperation } from '../../lib/http/text-operation.js'
import { assertLabels, classify } from '../../lib/http/classify.js'
import { INTENT_LABELS, IntentBatchReply, IntentReply } from '../../schemas/ops/intent.js'

export default async function intent (fastify: FastifyInstance) {
  assertLabels(fastify, 'intent', INTENT_LABELS)
  // made outside the spec, so that the results' type is inferred from it
  const run = classify(INTENT_LABELS)
  textOperation(fastify, {
    op: 'intent',
    model: 'intent',
    summary: 'Intent: news, query, spam, marketing and feedback scores',
    batch: true,
    // the blend of the word-order CNN and the encoder head, when it is installed
    preferred: ['intent-blend'],
    reply: IntentReply,
    batchReply: IntentBatchReply,
    run,
    single: i => ({ intent: i }),
    many: rs => ({ intent: rs.map(i => ({ intent: i })) })
  })
}
