// Target (aspect) sentiment, at the paths of both eras of the official clients: /target/sentiment
// (2019, field entity) and /target_sentiment (2021, field aspect), each with its _batch twin; either
// field name is accepted on every path. A batch asks about the same aspect in every text.
import type { FastifyInstance } from 'fastify'
import { textOperation, type TextFields } from '../../lib/http/text-operation.js'
import { assertLabels, byLabel } from '../../lib/http/classify.js'
import { Errors } from '../../lib/errors.js'
import type { LoadedModel } from '../../lib/serving/loaded-model.js'
import { aspectInput, findAspect, type Span } from '../../lib/text/aspect.js'
import { SENTIMENT_LABELS } from '../../schemas/ops/sentiment.js'
import {
  TargetSentimentBatchBody,
  TargetSentimentBatchReply,
  TargetSentimentBody,
  TargetSentimentReply,
  type TargetSentiment
} from '../../schemas/ops/target_sentiment.js'

/** the body's fields besides its text(s) */
type Body = TextFields<typeof TargetSentimentBody>

function aspectOf (body: Body): string {
  const { aspect, entity } = body
  if (aspect !== undefined && entity !== undefined && aspect !== entity) {
    throw new Errors.InvalidField('Send the aspect once: aspect and entity differ.')
  }
  const a = aspect ?? entity
  if (a === undefined) throw new Errors.MissingField('aspect (or entity)')
  return a.trim()
}

async function run (texts: string[], body: Body, model: LoadedModel<any, any>): Promise<TargetSentiment[]> {
  const aspect = aspectOf(body)
  const spans = texts.map((t, i) => {
    const found = findAspect(t, aspect)
    if (found.length === 0) {
      throw new Errors.InvalidField(
        `The aspect "${aspect}" does not occur in ${texts.length > 1 ? `text[${i}]` : 'text'}.`
      )
    }
    return found
  })
  const inputs = texts.flatMap((t, i) => (spans[i] as Span[]).map(s => aspectInput(t, s)))
  const rows = await (model as LoadedModel<string, number[]>).predict(inputs)
  let k = 0
  return spans.map(found => {
    const mean = SENTIMENT_LABELS.map(() => 0)
    for (let j = 0; j < found.length; j++) {
      ;(rows[k++] as number[]).forEach((p, c) => {
        mean[c]! += p / found.length
      })
    }
    const labels = model.manifest.labels
    return {
      sentiment: byLabel(
        SENTIMENT_LABELS.map(l => mean[labels.indexOf(l)] as number),
        SENTIMENT_LABELS,
        SENTIMENT_LABELS
      ),
      aspect,
      offsets: found
    }
  })
}

export default async function targetSentiment (fastify: FastifyInstance) {
  assertLabels(fastify, 'target_sentiment', SENTIMENT_LABELS)
  for (const op of ['target/sentiment', 'target_sentiment']) {
    textOperation(fastify, {
      op,
      model: 'target_sentiment',
      summary:
        'Target (aspect) sentiment: negative, neutral and positive scores towards the aspect ' +
        '(field aspect or entity), and where it occurs',
      batch: true,
      body: { single: TargetSentimentBody, batch: TargetSentimentBatchBody },
      reply: TargetSentimentReply,
      batchReply: TargetSentimentBatchReply,
      run,
      single: r => r,
      many: rs => ({ batch: rs })
    })
  }
}
