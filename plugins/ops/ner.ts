import type { FastifyInstance } from 'fastify'
import { textOperation } from '../../lib/routes.js'
import type { LoadedModel } from '../../lib/models.js'
import { NerBatchReply, NerReply, type Entity } from '../../schemas/ops/ner.js'

export default async function ner (fastify: FastifyInstance) {
  textOperation(fastify, {
    op: 'ner',
    model: 'ner',
    summary: 'Named entities (name, group, place) with UTF-16 offsets into the text',
    batch: true,
    detect: true,
    languages: ['en', 'es', 'nl', 'de'],
    reply: NerReply,
    batchReply: NerBatchReply,
    run: async (texts, body, model) =>
      (model as LoadedModel<{ text: string, lang: string }, Entity[]>).predict(texts.map((text) => ({ text, lang: body.lang_code ?? 'en' }))),
    single: (e) => ({ entities: e }),
    many: (rs) => ({ entities: rs })
  })
}
