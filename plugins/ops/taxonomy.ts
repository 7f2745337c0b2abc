import type { FastifyInstance } from 'fastify'
import { textOperation } from '../../lib/http/text-operation.js'
import type { LoadedModel } from '../../lib/serving/loaded-model.js'
import { TaxonomyBatchReply, TaxonomyReply } from '../../schemas/ops/taxonomy.js'

export default async function taxonomy (fastify: FastifyInstance) {
  textOperation(fastify, {
    op: 'taxonomy',
    model: 'taxonomy',
    summary:
      'Taxonomy: the top 3 IAB Content Taxonomy tier-1 categories of a text, each with an independent probability',
    batch: true,
    reply: TaxonomyReply,
    batchReply: TaxonomyBatchReply,
    run: async (texts, _body, model) => {
      const labels = model.manifest.labels
      const rows = await (model as LoadedModel<string, number[]>).predict(texts)
      return rows.map(row =>
        row
          .map((p, i) => ({ tag: labels[i] as string, confidence_score: p }))
          .sort((a, b) => b.confidence_score - a.confidence_score)
          .slice(0, 3)
      )
    },
    single: t => ({ taxonomy: t }),
    many: rs => ({ taxonomy: rs })
  })
}
