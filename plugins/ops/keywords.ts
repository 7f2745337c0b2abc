import type { FastifyInstance } from 'fastify'
import { textOperation } from '../../lib/http/text-operation.js'
import type { LoadedModel } from '../../lib/serving/loaded-model.js'
import { KeywordsBatchReply, KeywordsReply, type Keyword } from '../../schemas/ops/keywords.js'

export default async function keywords (fastify: FastifyInstance) {
  textOperation(fastify, {
    op: 'keywords',
    model: 'keywords',
    summary: 'Keywords: ranked keyphrases with confidence scores (at most 10)',
    batch: true,
    detect: true,
    // the languages other than English from the encoder's keyphrases
    models: ['keywords-multilingual'],
    reply: KeywordsReply,
    batchReply: KeywordsBatchReply,
    run: async (texts, body, model) =>
      (model as LoadedModel<{ text: string; lang: string }, Keyword[]>).predict(
        texts.map(text => ({ text, lang: body.lang_code ?? 'en' }))
      ),
    single: k => ({ keywords: k }),
    many: rs => ({ keywords: rs })
  })
}
