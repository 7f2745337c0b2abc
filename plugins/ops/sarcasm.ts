import type { FastifyInstance } from 'fastify'
import { textOperation } from '../../lib/routes.js'
import { assertLabels, classify } from '../../lib/classify.js'
import { SARCASM_LABELS, SarcasmBatchReply, SarcasmReply } from '../../schemas/ops/sarcasm.js'

export default async function sarcasm (fastify: FastifyInstance) {
  assertLabels(fastify, 'sarcasm', SARCASM_LABELS)
  textOperation<Record<string, number>>(fastify, {
    op: 'sarcasm',
    model: 'sarcasm',
    summary: 'Sarcasm: Sarcastic and Non-Sarcastic scores (the batch answer is a bare array)',
    batch: true,
    detect: 'headers',
    reply: SarcasmReply,
    batchReply: SarcasmBatchReply,
    run: classify(SARCASM_LABELS),
    single: (s) => s,
    many: (rs) => rs
  })
}
