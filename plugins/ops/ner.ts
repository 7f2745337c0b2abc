import type { FastifyInstance } from 'fastify'
import { textOperation } from '../../lib/http/text-operation.js'
import type { LoadedModel } from '../../lib/serving/loaded-model.js'
import type { NerInput } from '../../lib/text/ner/tagger.js'
import { NerBatchReply, NerReply, type Entity } from '../../schemas/ops/ner.js'

export default async function ner (fastify: FastifyInstance) {
  textOperation(fastify, {
    op: 'ner',
    model: 'ner',
    summary: 'Named entities (name, group, place) with UTF-16 offsets into the text',
    batch: true,
    detect: true,
    // French (and any language the tagger lacks) from the head over the text encoder
    models: ['ner-multilingual'],
    reply: NerReply,
    batchReply: NerBatchReply,
    run: async (texts, body, model) => {
      const lang = body.lang_code ?? 'en'
      return await (model as LoadedModel<NerInput, Entity[]>).predict(texts.map(text => ({ text, lang })))
    },
    single: e => ({ entities: e }),
    many: rs => ({ entities: rs })
  })
}
