import type { FastifyInstance } from 'fastify'
import { textOperation } from '../../lib/routes.js'
import type { LoadedModel } from '../../lib/models.js'
import { NerBatchReply, NerReply } from '../../schemas/ops/ner.js'

type Entity = { name: string, category: string, confidence_score: number, start: number, end: number }

export default async function ner (fastify: FastifyInstance) {
  textOperation<Entity[]>(fastify, {
    op: 'ner',
    model: 'ner',
    summary: 'Named entities (name, group, place) with UTF-16 offsets into the text',
    batch: true,
    detect: true,
    languages: ['en', 'es', 'nl', 'de'],
    reply: NerReply,
    batchReply: NerBatchReply,
    run: async (texts, body, model) =>
      (model as LoadedModel<{ text: string, lang: string }, Entity[]>).predict(texts.map((text) => ({ text, lang: (body.lang_code as string | undefined) ?? 'en' }))),
    single: (e) => ({ entities: e }),
    many: (rs) => ({ entities: rs })
  })
}
