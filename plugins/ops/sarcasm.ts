import type { FastifyInstance } from 'fastify'
import { textOperation } from '../../lib/http/text-operation.js'
import { assertLabels, labelled } from '../../lib/http/classify.js'
import { SARCASM_LABELS, SarcasmBatchReply, SarcasmReply } from '../../schemas/ops/sarcasm.js'

export default async function sarcasm (fastify: FastifyInstance) {
  assertLabels(fastify, 'sarcasm', SARCASM_LABELS)
  // made outside the spec, so that the results' type is inferred from it
  const fromOutputs = labelled(SARCASM_LABELS)
  textOperation(fastify, {
    op: 'sarcasm',
    model: 'sarcasm',
    summary: 'Sarcasm: Sarcastic and Non-Sarcastic scores (the batch answer is a bare array)',
    batch: true,
    detect: 'headers',
    fromOutputs,
    // English from the blend of the word-order CNN and the encoder head, when it is installed
    preferred: ['sarcasm-blend'],
    reply: SarcasmReply,
    batchReply: SarcasmBatchReply,
    single: s => s,
    many: rs => rs
  })
}
