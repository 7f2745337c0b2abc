import type { FastifyInstance } from 'fastify'
import { textOperation } from '../../lib/http/text-operation.js'
import type { LoadedModel } from '../../lib/serving/loaded-model.js'
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
    models: ['keywords-multilingual'],
    reply: KeywordsReply,
    run: async (texts, body, model) =>
      (model as LoadedModel<{ text: string; lang: string }, Keyword[]>).predict(
        texts.map(text => ({ text, lang: body.lang_code ?? 'en' }))
      ),
    single: k => ({ keywords: k })
  })
}
