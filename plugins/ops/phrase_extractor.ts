import type { FastifyInstance } from 'fastify'
import { textOperation } from '../../lib/http/text-operation.js'
import type { LoadedModel } from '../../lib/serving/loaded-model.js'
import { PhraseExtractorBatchReply, PhraseExtractorReply, type Phrase } from '../../schemas/ops/phrase_extractor.js'

export default async function phraseExtractor (fastify: FastifyInstance) {
  textOperation(fastify, {
    op: 'phrase_extractor',
    model: 'phrase_extractor',
    summary:
      'Phrase extractor: the noun phrases of a text with integer relevance scores (occurrences), most relevant first',
    batch: true,
    reply: PhraseExtractorReply,
    batchReply: PhraseExtractorBatchReply,
    run: async (texts, _body, model) => (model as LoadedModel<string, Phrase[]>).predict(texts),
    single: k => ({ keywords: k }),
    many: rs => ({ keywords: rs })
  })
}
