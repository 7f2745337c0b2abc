import type { FastifyInstance } from 'fastify'
import { textOperation } from '../../lib/http/text-operation.js'
import { NerBatchReply, NerReply, type Entity } from '../../schemas/ops/ner.js'

export default async function ner (fastify: FastifyInstance) {
  textOperation(fastify, {
    op: 'ner',
    model: 'ner',
    summary: 'Named entities (name, group, place) with UTF-16 offsets into the text',
    batch: true,
    detect: true,
    // the head over the text encoder serves the languages its manifest lists (those where it scores above the
    // tagger, and French, which the tagger lacks); the tagger the others
    preferred: ['ner-multilingual'],
    reply: NerReply,
    batchReply: NerBatchReply,
    // the tagger reads each text with its language: its outputs are the entities
    withLang: true,
    single: (e: Entity[]) => ({ entities: e }),
    many: rs => ({ entities: rs })
  })
}
