import type { FastifyInstance } from 'fastify'
import { textOperation } from '../../lib/http/text-operation.js'
import { KeywordsBatchReply, KeywordsReply, type Keyword } from '../../schemas/ops/keywords.js'

export default async function keywords (fastify: FastifyInstance) {
  textOperation(fastify, {
    op: 'keywords',
    model: 'keywords',
    summary: 'Keywords: ranked keyphrases with confidence scores (at most 10)',
    batch: true,
    detect: true,
    // the languages other than English from the encoder's keyphrases
    moreLanguages: ['keywords-multilingual'],
    reply: KeywordsReply,
    batchReply: KeywordsBatchReply,
    // the ranker reads each text with its language: its outputs are the keywords
    withLang: true,
    single: (k: Keyword[]) => ({ keywords: k }),
    many: rs => ({ keywords: rs })
  })
}
