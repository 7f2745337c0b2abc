import type { FastifyInstance } from 'fastify'
import { textOperation } from '../../lib/http/text-operation.js'
import { assertLabels, classify } from '../../lib/http/classify.js'
import { ABUSE_LABELS, AbuseBatchReply, AbuseReply, type AbuseReply as Answer } from '../../schemas/ops/abuse.js'

/** The more likely label and its probability. */
function decide (s: Record<(typeof ABUSE_LABELS)[number], number>): Answer {
  const abusive = s.Abusive > s['Non Abusive']
  return {
    sentence_type: abusive ? 'Abusive' : 'Non Abusive',
    confidence_score: abusive ? s.Abusive : s['Non Abusive']
  }
}

export default async function abuse (fastify: FastifyInstance) {
  assertLabels(fastify, 'abuse', ABUSE_LABELS)
  const scores = classify(ABUSE_LABELS)
  textOperation(fastify, {
    op: 'abuse',
    model: 'abuse',
    summary: 'Abuse: whether a text is Abusive or Non Abusive, with the probability of that answer',
    batch: true,
    reply: AbuseReply,
    batchReply: AbuseBatchReply,
    run: async (texts, body, model) => (await scores(texts, body, model)).map(decide),
    single: r => r,
    many: rs => ({ abuse: rs })
  })
}
