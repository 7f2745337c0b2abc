// /new/intent: the intent scores, and with query=feedback the feedback split into complaint,
// suggestion and appreciation by a second model (model-store/new_intent).
import type { FastifyInstance } from 'fastify'
import { textOperation } from '../../lib/http/text-operation.js'
import { assertLabels, byLabel, classify } from '../../lib/http/classify.js'
import { Errors } from '../../lib/errors.js'
import type { LoadedModel } from '../../lib/serving/loaded-model.js'
import { INTENT_LABELS } from '../../schemas/ops/intent.js'
import {
  FEEDBACK_LABELS,
  NewIntentBatchBody,
  NewIntentBatchReply,
  NewIntentBody,
  NewIntentReply
} from '../../schemas/ops/new_intent.js'

export default async function newIntent (fastify: FastifyInstance) {
  assertLabels(fastify, 'intent', INTENT_LABELS)
  assertLabels(fastify, 'new_intent', FEEDBACK_LABELS)
  const intents = classify(INTENT_LABELS)
  textOperation(fastify, {
    op: 'new/intent',
    model: 'intent',
    // the intent scores of /v4/intent: the blend of the word-order CNN and the encoder head, when installed
    preferred: ['intent-blend'],
    summary: 'Intent, and with query=feedback the kind of feedback: complaint, suggestion, appreciation',
    batch: true,
    body: { single: NewIntentBody, batch: NewIntentBatchBody },
    reply: NewIntentReply,
    batchReply: NewIntentBatchReply,
    run: async (texts, body, model) => {
      const query = body.query
      if (query !== undefined && query !== 'feedback') throw new Errors.InvalidQuery()
      const base = await intents(texts, body, model)
      if (query !== 'feedback') return base.map(intent => ({ intent }))
      // the blend of the word-order model and the encoder head, when it is installed
      const fb =
        (fastify.models.get('new_intent-blend') as LoadedModel<string, number[]> | undefined) ??
        fastify.needModel<string, number[]>('new_intent', 'new/intent with query=feedback')
      const rows = await fb.predict(texts)
      return base.map((intent, i) => ({
        intent,
        feedback: byLabel(rows[i] as number[], fb.manifest.labels, FEEDBACK_LABELS)
      }))
    },
    single: r => r,
    many: rs => ({ intent: rs })
  })
}
