import type { FastifyInstance } from 'fastify'
import { textOperation } from '../../lib/http/text-operation.js'
import { KeywordsReply, type Keyword } from '../../schemas/ops/keywords.js'

/** The real API's multilingual keywords path: the keywords models, whose languages are their manifests'. */
export default async function multilangKeywords (fastify: FastifyInstance) {
  textOperation(fastify, {
    op: 'multilang_keywords',
    model: 'keywords',
    summary: 'Keywords of a text in any language the keywords model serves (lang_code, or detected)',
    batch: false,
    detect: true,
    // the languages other than English from the encoder's keyphrases
    moreLanguages: ['keywords-multilingual'],
    reply: KeywordsReply,
    // the ranker reads each text with its language: its outputs are the keywords
    withLang: true,
    single: (k: Keyword[]) => ({ keywords: k })
  })
}
