import type { FastifyInstance } from 'fastify'
import { textOperation } from '../../lib/http/text-operation.js'
import { assertLabels, labelled } from '../../lib/http/classify.js'
import { EMOTION_LABELS, EmotionBatchReply, EmotionReply } from '../../schemas/ops/emotion.js'

export default async function emotion (fastify: FastifyInstance) {
  assertLabels(fastify, 'emotion', EMOTION_LABELS)
  // made outside the spec, so that the results' type is inferred from it
  const fromOutputs = labelled(EMOTION_LABELS)
  textOperation(fastify, {
    op: 'emotion',
    preferred: ['emotion-blend'],
    model: 'emotion',
    summary: 'Emotion of a text: Fear, Happy, Angry, Sad, Excited and Bored scores',
    batch: true,
    detect: true,
    fromOutputs,
    moreLanguages: ['emotion-multilingual'],
    reply: EmotionReply,
    batchReply: EmotionBatchReply,
    single: e => ({ emotion: e }),
    many: rs => ({ emotion: rs })
  })
}
