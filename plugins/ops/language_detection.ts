import type { FastifyInstance } from 'fastify'
import { textOperation } from '../../lib/http/text-operation.js'
import type { LoadedModel } from '../../lib/serving/loaded-model.js'
import type { Detection } from '../../lib/text/langid/langid.js'
import { LanguageBatchReply, LanguageReply } from '../../schemas/ops/language_detection.js'

export default async function languageDetection (fastify: FastifyInstance) {
  textOperation(fastify, {
    op: 'language_detection',
    model: 'language_detection',
    summary: 'The language of a text: its English name, probability and ISO 639-1 code',
    batch: true,
    reply: LanguageReply,
    batchReply: LanguageBatchReply,
    run: async (texts, _body, model) =>
      (await (model as LoadedModel<string, Detection>).predict(texts)).map(d => ({
        output: d.name,
        prob: Number(d.prob.toFixed(4)),
        lang_code: d.code
      })),
    single: g => g,
    many: gs => ({ batch: gs })
  })
}
